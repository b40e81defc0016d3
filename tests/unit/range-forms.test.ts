import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { rangeSchema } from '@/features/admin/reports/schemas/range';
import { archiveRangeSchema, datevRangeSchema } from '@/features/admin/datev/schemas/datev';
import { MAX_RANGE_DAYS } from '@/features/admin/reports/lib/range';

i18n.loadAndActivate({ locale: 'de', messages: {} });

type Issue = { message: string; path: PropertyKey[] };
const issues = (result: { success: boolean; error?: { issues: Issue[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('the range forms of reports, DATEV export and invoice archive (checked again by the database)', () => {
  const schemas = { report: rangeSchema(), datev: datevRangeSchema('01-01'), archive: archiveRangeSchema() };

  it('each asks for two valid days in order, the refusal under the end date', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      expect(schema.safeParse({ from: '2026-03-01', to: '2026-03-31' }).success, name).toBe(true);
      expect(schema.safeParse({ from: '2026-03-01', to: '2026-03-01' }).success, name).toBe(true);
      // The form shows a field's first message.
      expect(issues(schema.safeParse({ from: '', to: '2026-03-01' }))[0], name).toBe('from: Pflichtfeld');
      expect(issues(schema.safeParse({ from: '2026-02-30', to: '2026-03-01' })), name).toEqual(['from: Bitte ein gültiges Datum eingeben']);
      expect(issues(schema.safeParse({ from: '2026-03-02', to: '2026-03-01' })), name).toEqual([
        'to: Das Enddatum darf nicht vor dem Anfangsdatum liegen',
      ]);
    }
  });

  it('each keeps its own limit: report days, one fiscal year, an archive of at most 366 days', () => {
    const end = new Date(Date.UTC(2026, 0, 1) + MAX_RANGE_DAYS * 86_400_000).toISOString().slice(0, 10);
    const past = new Date(Date.UTC(2026, 0, 1) + (MAX_RANGE_DAYS + 1) * 86_400_000).toISOString().slice(0, 10);
    expect(schemas.report.safeParse({ from: '2026-01-01', to: end }).success).toBe(true);
    expect(issues(schemas.report.safeParse({ from: '2026-01-01', to: past }))).toEqual([
      `to: Ein Bericht umfasst höchstens ${MAX_RANGE_DAYS} Tage`,
    ]);

    expect(schemas.datev.safeParse({ from: '2026-01-01', to: '2026-12-31' }).success).toBe(true);
    expect(issues(schemas.datev.safeParse({ from: '2026-12-01', to: '2027-01-31' }))[0]).toMatch(
      /^to: Ein DATEV-Buchungsstapel umfasst höchstens ein Wirtschaftsjahr/,
    );
    expect(datevRangeSchema('07-01').safeParse({ from: '2026-12-01', to: '2027-01-31' }).success).toBe(true);

    // 2028 is a leap year: 1 January to 31 December are 366 days, one more is too many.
    expect(schemas.archive.safeParse({ from: '2028-01-01', to: '2028-12-31' }).success).toBe(true);
    expect(issues(schemas.archive.safeParse({ from: '2028-01-01', to: '2029-01-01' }))[0]).toMatch(
      /^to: Ein Archiv umfasst höchstens ein Jahr \(366 Tage\)/,
    );
  });
});
