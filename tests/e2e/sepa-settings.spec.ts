/**
 * The SEPA creditor settings on the admin settings page (issue 42, docs/adr/0048): the creditor
 * identifier with its ISO 7064 MOD 97-10 check digits and the pre-notification days (1 to 30),
 * refused with a clear message in the form and by the database whoever calls (400, never 500).
 * Every save here stores the demo values again (DE98ZZZ09999999999, 14): the SEPA browser tests
 * running beside this one read them in their pre-notifications.
 */
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe.ts';
import { clientAs } from './admin-content-helpers.ts';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, personaToken } from './booking-helpers.ts';
import { personas } from '../helpers/personas.ts';

const DEMO = { creditor_id: 'DE98ZZZ09999999999', prenotification_days: 14 };

test.describe('SEPA settings', () => {
  test.use({ persona: 'admin' });

  test('de: a wrong check digit and days out of range are refused with a message; the identifier is stored normalised', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/account/admin/settings');
    const section = page.getByRole('region', { name: 'SEPA-Lastschrift' });
    await expect(section).toContainText('mindestens 14 Kalendertage vor dem Einzug');
    const id = section.getByLabel('Gläubiger-Identifikationsnummer');
    const days = section.getByLabel('Vorabankündigung (Tage vor dem Einzug)');
    await expect(id).toHaveValue(DEMO.creditor_id);
    await expect(days).toHaveValue('14');

    await id.fill('DE97ZZZ09999999999');
    await days.fill('0');
    await section.getByRole('button', { name: 'SEPA-Einstellungen speichern' }).click();
    await expect(
      section.getByText('Diese Gläubiger-Identifikationsnummer ist nicht gültig (Aufbau oder Prüfziffer stimmen nicht)', { exact: false }),
    ).toBeVisible();
    await expect(section.getByText('Bitte eine ganze Zahl von Tagen zwischen 1 und 30 eingeben')).toBeVisible();
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await days.fill('2,5');
    await expect(section.getByText('Bitte eine ganze Zahl von Tagen zwischen 1 und 30 eingeben')).toBeVisible();

    // The same identifier typed with spaces in small letters: valid, stored as the bank prints it.
    await id.fill('de98 zzz0 9999 9999 99');
    await days.fill('14');
    await section.getByRole('button', { name: 'SEPA-Einstellungen speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');
    await expect(id).toHaveValue(DEMO.creditor_id);
    const admin = await clientAs('admin');
    expect((await admin.rpc('sepa_settings')).data).toEqual(DEMO);
    expect(await seriousViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('en: the form speaks English; the database refuses bad values whoever calls, with 400 and the field', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/en/account/admin/settings');
    const section = page.getByRole('region', { name: 'SEPA direct debit' });
    await expect(section).toContainText('at least 14 calendar days before the debit');
    await section.getByLabel('Creditor identifier').fill('DE98ZZZ0999999999');
    await section.getByLabel('Pre-notification (days before the debit)').fill('31');
    await section.getByRole('button', { name: 'Save SEPA settings' }).click();
    await expect(
      section.getByText('This creditor identifier is not valid (structure or check digits do not match)', { exact: false }),
    ).toBeVisible();
    await expect(section.getByText('Please enter a whole number of days from 1 to 30')).toBeVisible();

    const call = async (token: string, body: Record<string, unknown>) => {
      const res = await fetch(`${apiUrl}/rest/v1/rpc/save_sepa_settings`, {
        method: 'POST',
        headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { message?: string; hint?: string } };
    };
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    expect(await call(admin, { p_creditor_id: 'DE97ZZZ09999999999', p_prenotification_days: 14 })).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'sepa_invalid_setting', hint: 'creditor_id' }),
    });
    expect(await call(admin, { p_creditor_id: DEMO.creditor_id, p_prenotification_days: 0 })).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'sepa_invalid_setting', hint: 'prenotification_days' }),
    });
    expect((await call(admin, { p_creditor_id: DEMO.creditor_id, p_prenotification_days: 'many' })).status).toBe(400);
    const harbour = await personaToken(personas.harbour.email, personas.harbour.password);
    expect((await call(harbour, { p_creditor_id: DEMO.creditor_id, p_prenotification_days: 14 })).status).toBe(403);
    expect(consoleErrors).toEqual([]);
  });
});
