/**
 * Defects of issue 23 ("Why") that a component test holds; the browser ones are in
 * tests/e2e/defects.spec.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { screen } from '@testing-library/react';
import { StepBerthData } from '@/features/booking/components/step-berth-data';
import { emptyBerthData } from '@/features/booking/schemas/berth-data';
import { decimalInput, formatDecimal, formatSize } from '@/lib/numbers';
import { renderPage } from './render';

describe('the walk-in form speaks of the guest, not to them', () => {
  for (const [locale, guest, own, longTerm] of [
    ['de', 'Boot des Gastes', 'Ihr Boot', 'Langzeitliegeplatz beantragen'],
    ['en', "The guest's boat", 'Your boat', 'Apply for a long-term berth'],
  ] as const) {
    it(`staff read "${guest}" and get no long-term application link (${locale})`, async () => {
      await renderPage(() => <StepBerthData forStaff onSubmit={() => {}} />, { locale });
      expect(await screen.findByText(guest)).toBeTruthy();
      expect(screen.queryByText(own)).toBeNull();
      expect(screen.queryByRole('link', { name: longTerm })).toBeNull();
    });
    it(`a guest reads "${own}" and may apply for a long-term berth (${locale})`, async () => {
      await renderPage(() => <StepBerthData onSubmit={() => {}} />, { locale });
      expect(await screen.findByText(own)).toBeTruthy();
      expect(screen.getByRole('link', { name: longTerm })).toBeTruthy();
    });
  }
});

describe('one German term for a long-term berth', () => {
  it('"Langzeitliegeplatz" / "Langzeitlieger" (the spec\'s Langzeitlieger), never "Dauerliegeplatz" / "Dauerlieger"', () => {
    const root = resolve(import.meta.dirname, '../..');
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    const used = [...files('src'), ...files('supabase/schemas'), ...files('supabase/functions'), ...files('locales')]
      .filter((f) => /\.(tsx?|sql|po)$/.test(f))
      // Obsolete catalogue entries (#~) are history, not shown.
      .filter((f) =>
        readFileSync(join(root, f), 'utf8')
          .split('\n')
          .some((line) => !line.startsWith('#~') && /Dauerlieg/i.test(line)),
      );
    expect(used).toEqual([]);
  });
});

describe('numbers by page language (Intl)', () => {
  it('German pages write a decimal comma, English ones a point', () => {
    expect(formatSize(12.1, '3.9', 'de')).toBe('12,1 × 3,9 m');
    expect(formatSize('12.1', 3.9, 'en')).toBe('12.1 × 3.9 m');
    expect(formatDecimal(9.4, 'de')).toBe('9,4');
    expect(decimalInput('9.4', 'de')).toBe('9,4');
    expect(decimalInput(1250.5, 'de')).toBe('1250,5');
    expect(decimalInput(null, 'en')).toBe('');
  });
  it("the profile's boat is prefilled in the booking form as the page writes it", async () => {
    await renderPage(
      () => (
        <StepBerthData
          initial={{
            ...emptyBerthData,
            arrival: '2030-06-01',
            departure: '2030-06-02',
            boatName: 'Rheinperle',
            boatLength: decimalInput(9.4, 'de'),
            boatWidth: decimalInput(3.2, 'de'),
          }}
          onSubmit={() => {}}
        />
      ),
      { locale: 'de' },
    );
    expect(((await screen.findByLabelText('Bootslänge (m)')) as HTMLInputElement).value).toBe('9,4');
  });
});

describe('plurals through Lingui (ICU)', () => {
  it('one night, two nights; one entry, two entries; one user', async () => {
    const { activateLocale, i18n } = await import('@/lib/i18n');
    // The catalogues are keyed by the macro's message ids.
    const say = (message: string, values: Record<string, unknown>) => i18n._(generateMessageId(message), values);
    const night = (n: number) => say('{n, plural, one {Nacht} other {Nächte}}', { n });
    const entries = (total: number) =>
      say('{total, plural, one {# Eintrag} other {# Einträge}} · Seite {page} von {pages}', { total, page: 1, pages: 1 });
    const users = (total: number) =>
      say('Seite {page} von {pages} ({total, plural, one {# Benutzer} other {# Benutzer}})', { total, page: 1, pages: 1 });
    await activateLocale('de', '/account/admin');
    expect([night(1), night(2), entries(1), entries(2)]).toEqual([
      'Nacht',
      'Nächte',
      '1 Eintrag · Seite 1 von 1',
      '2 Einträge · Seite 1 von 1',
    ]);
    await activateLocale('en', '/account/admin');
    expect([night(1), night(2), entries(1), entries(2), users(1), users(3)]).toEqual([
      'night',
      'nights',
      '1 entry · page 1 of 1',
      '2 entries · page 1 of 1',
      'Page 1 of 1 (1 user)',
      'Page 1 of 1 (3 users)',
    ]);
  });
});

describe('plurals through ICU, never "Buchung(en)"', () => {
  it('no live catalogue text writes a pseudo-plural such as "(en)", "(n)", "(e)" or "(s)"', () => {
    const root = resolve(import.meta.dirname, '../..');
    const found: string[] = [];
    for (const locale of ['de', 'en']) {
      for (const file of readdirSync(join(root, 'locales', locale)).filter((f) => f.endsWith('.po'))) {
        for (const line of readFileSync(join(root, 'locales', locale, file), 'utf8').split('\n')) {
          if (/^msg(id|str) /.test(line) && /\p{L}\((en|n|e|s|es|nen|in)\)/u.test(line))
            found.push(`${locale}/${file}: ${line.slice(0, 80)}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
  it('the berth delete dialog counts its bookings (de, en)', async () => {
    const { activateLocale, i18n } = await import('@/lib/i18n');
    const id = generateMessageId(
      'Zu „{name}“ gibt es {count, plural, one {# Buchung} other {# Buchungen}}. Ein Liegeplatz mit Buchungen kann nicht gelöscht werden, damit die Buchungen nachvollziehbar bleiben. Sie können ihn stattdessen archivieren: Er erscheint dann nicht mehr in der Suche und in den Listen, bleibt aber für die Historie erhalten.',
    );
    await activateLocale('de', '/account/admin');
    expect(i18n._(id, { name: 'A1', count: 1 })).toMatch(/^Zu „A1“ gibt es 1 Buchung\. /);
    expect(i18n._(id, { name: 'A1', count: 3 })).toMatch(/^Zu „A1“ gibt es 3 Buchungen\. /);
    await activateLocale('en', '/account/admin');
    expect(i18n._(id, { name: 'A1', count: 1 })).toMatch(/^“A1” has 1 booking\. /);
    expect(i18n._(id, { name: 'A1', count: 2 })).toMatch(/^“A1” has 2 bookings\. /);
  });
});
