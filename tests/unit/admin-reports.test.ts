import { describe, expect, it } from 'vitest';
import { csvCell, toCsv, UTF8_BOM } from '@/features/admin/reports/lib/csv';
import { formatters } from '@/features/admin/reports/lib/format';
import { rangeProblem } from '@/features/admin/reports/lib/range';

describe('report CSV', () => {
  it('quotes separators, quotes and line breaks, and doubles inner quotes', () => {
    expect(csvCell('Nederland')).toBe('Nederland');
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('Der "Hafen"')).toBe('"Der ""Hafen"""');
    expect(csvCell('zwei\nZeilen')).toBe('"zwei\nZeilen"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(0)).toBe('0');
  });

  it('defuses text that a spreadsheet would run as a formula, but keeps negative numbers', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+49 211')).toBe("'+49 211");
    expect(csvCell('-12,50')).toBe('-12,50');
    expect(csvCell(-5)).toBe('-5');
  });

  it('starts with a UTF-8 BOM, separates with semicolons and ends lines with CRLF', () => {
    const text = toCsv(
      ['Land', 'Gäste'],
      [
        ['Österreich', 3],
        ['Belgique', 1],
      ],
    );
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    expect(text.slice(1)).toBe('Land;Gäste\r\nÖsterreich;3\r\nBelgique;1\r\n');
  });

  it('writes money in euros with the language decimal mark', () => {
    expect(formatters('de').csvMoney(123456)).toBe('1234,56');
    expect(formatters('en').csvMoney(-5)).toBe('-0.05');
    expect(formatters('de').money(123456)).toBe('1.234,56\u00a0€');
    expect(formatters('en').money(123456)).toBe('€1,234.56');
  });
});

describe('report range', () => {
  it('accepts ordered ranges up to 1100 days and refuses the rest', () => {
    expect(rangeProblem('2026-01-01', '2026-01-01')).toBeUndefined();
    expect(rangeProblem('2026-01-02', '2026-01-01')).toBe('order');
    expect(rangeProblem('2024-01-01', '2027-01-05')).toBeUndefined();
    expect(rangeProblem('2024-01-01', '2027-01-06')).toBe('too_long');
  });
});
