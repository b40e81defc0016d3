/**
 * Defects of issue 23 ("Why") that a component test holds; the browser ones are in
 * tests/e2e/defects.spec.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { StepBerthData } from '@/features/booking/components/step-berth-data';
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
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    const used = [...files('src'), ...files('supabase/schemas'), ...files('supabase/functions'), ...files('locales')]
      .filter((f) => /\.(tsx?|sql|po)$/.test(f))
      // Obsolete catalogue entries (#~) are history, not shown.
      .filter((f) => readFileSync(join(root, f), 'utf8').split('\n').some((line) => !line.startsWith('#~') && /Dauerlieg/i.test(line)));
    expect(used).toEqual([]);
  });
});
