import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { isInternationalPhone, startIntroSchema } from '@/features/admin/settings/schemas/start-intro';

i18n.loadAndActivate({ locale: 'de', messages: {} });

/** The settings form's rules for the harbour's phone and e-mail mirror the checks of harbour_settings (pgTAP 391). */
describe('the harbour contact in the settings form', () => {
  it('takes international numbers as people write them', () => {
    for (const ok of ['+49 211 1234560', '+49 (0)211 98765-43', '+31 20-555 0100', '+4921112345', '+44 20/7946 0958']) {
      expect(isInternationalPhone(ok), ok).toBe(true);
    }
  });

  it('refuses national numbers, letters and wrong lengths', () => {
    for (const bad of [
      '0211 1234560',
      '+49 211',
      '+49 211 1234567890123',
      '+49 211 CALL-NOW',
      '+0 211 1234560',
      '+49  211 123456',
      '+49 211 123456-',
      '',
    ]) {
      expect(isInternationalPhone(bad), bad).toBe(false);
    }
  });

  it('reports each field with its own message', () => {
    const base = startIntroSchema.safeParse({});
    expect(base.success).toBe(false);
    const values = {
      address_street: 'Speditionstraße 25',
      address_postal_code: '40221',
      address_city: 'Düsseldorf',
      latitude: '',
      longitude: '',
      office_weekdays_opens: '',
      office_weekdays_closes: '',
      office_weekend_opens: '',
      office_weekend_closes: '',
      office_hours_note: '',
      office_hours_note_en: '',
      rhine_km: '',
      vhf_channel: '',
      water_approach: '',
      water_approach_en: '',
      contact_phone: '+49 211 1234560',
      contact_email: 'hafen@hafen-duesseldorf.example',
    };
    expect(startIntroSchema.safeParse(values).success).toBe(true);
    const result = startIntroSchema.safeParse({ ...values, contact_phone: '0211 1234560', contact_email: 'hafen@local' });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['contact_phone', 'contact_email']));
    expect(result.error!.issues.find((i) => i.path[0] === 'contact_phone')!.message).toMatch(/\+49 211 1234560/);
  });
});
