import { describe, expect, it } from 'vitest';
import { parseAuditSearch } from '@/features/admin/audit/api/audit-search';
import { auditColumns, formatAuditValue } from '@/features/admin/audit/lib/values';

const words = { empty: '(leer)', yes: 'ja', no: 'nein' };

describe('the audit page search params (validateSearch)', () => {
  it('keeps valid filters and page', () => {
    expect(
      parseAuditSearch({ table: 'public.places', actor: ' Hafen ', kind: 'system', from: '2026-11-01', to: '2026-11-30', page: 2 }),
    ).toEqual({
      table: 'public.places',
      actor: 'Hafen',
      kind: 'system',
      from: '2026-11-01',
      to: '2026-11-30',
      page: 2,
    });
  });

  it('drops malformed tables, kinds, days and pages; a table attached later is kept', () => {
    expect(parseAuditSearch({ table: 'auth.users', kind: 'staff', from: '2026-02-30', page: 1 })).toEqual({
      table: undefined,
      actor: undefined,
      kind: undefined,
      from: undefined,
      to: undefined,
      page: undefined,
    });
    expect(parseAuditSearch({ table: "public.x'; drop" }).table).toBeUndefined();
    expect(parseAuditSearch({ table: 'public.cash_book_entries' }).table).toBe('public.cash_book_entries');
    expect(parseAuditSearch({ actor: 'x'.repeat(150) }).actor).toHaveLength(100);
  });
});

describe('audit values as a person reads them', () => {
  it('shows empty, yes/no, numbers in the locale, instants in Berlin time, JSON cut short', () => {
    expect(formatAuditValue(null, 'de', words)).toBe('(leer)');
    expect(formatAuditValue('', 'de', words)).toBe('(leer)');
    expect(formatAuditValue(true, 'de', words)).toBe('ja');
    expect(formatAuditValue(4.5, 'de', words)).toBe('4,5');
    expect(formatAuditValue(4.5, 'en', words)).toBe('4.5');
    // 10:00 UTC in May is 12:00 in Düsseldorf.
    expect(formatAuditValue('2027-05-11T10:00:00+00:00', 'de', words)).toContain('12:00');
    expect(formatAuditValue('2027-05-11', 'de', words)).toBe('2027-05-11');
    const long = formatAuditValue({ note: 'x'.repeat(300) }, 'de', words);
    expect(long).toHaveLength(160);
    expect(long.endsWith('…')).toBe(true);
  });

  it('lists every changed column of an update, and only the filled ones of a new row, by label', () => {
    const label = (c: string) => ({ width: 'Breite', name: 'Name', length: 'Länge' })[c] ?? c;
    expect(
      auditColumns(
        { action: 'update', row_key: 'k', old_values: { width: 4, name: null }, new_values: { width: 4.5, name: 'A' } },
        label,
        'de',
      ),
    ).toEqual(['width', 'name']); // Breite before Name
    expect(
      auditColumns(
        {
          action: 'insert',
          row_key: 'k',
          old_values: null,
          new_values: { id: 'k', name: 'A1', length: 12, description: '', features: [], position: null, created_at: 't', updated_at: 't' },
        },
        label,
        'de',
      ),
    ).toEqual(['length', 'name']);
    expect(auditColumns({ action: 'delete', row_key: 'k', old_values: { id: 'k', width: 3 }, new_values: null }, label, 'de')).toEqual([
      'width',
    ]);
  });
});
