/**
 * The DATEV Buchungsstapel builder (src/features/admin/datev/lib/extf.ts) against the format
 * description (developer.datev.de, "DATEV-Format"): header of 31 fields, 125 columns on every
 * line, CR LF, Windows-1252 (an umlaut is one byte), decimal comma, quoted text.
 */
import { describe, expect, it } from 'vitest';
import {
  buildExtf,
  buildExtfText,
  COLUMNS,
  encodeWindows1252,
  extfFileName,
  fiscalYearStart,
  formatAmount,
  HEADER_FIELD_COUNT,
  headerLine,
  textField,
  type ExtfInput,
} from '@/features/admin/datev/lib/extf';

/** Splits one CSV line on ";" outside quotes (DATEV text fields never hold a line break). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '""';
        i++;
        continue;
      }
      quoted = !quoted;
      cur += c;
    } else if (c === ';' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

const input: ExtfInput = {
  settings: { consultant_number: '29098', client_number: '55003', fiscal_year_start: '01-01', account_length: 4 },
  from: '2026-06-01',
  to: '2026-06-30',
  createdAt: '20260701093015123',
  label: 'Hafen Düsseldorf 06/2026',
  postings: [
    {
      amount_cents: 11900,
      side: 'S',
      account: '10000',
      contra_account: '8400',
      document_date: '2026-06-05',
      document_number: 'RE-2026-00001',
      posting_text: 'Rechnung RE-2026-00001, HD-26-ABCD, 19 % USt.',
    },
    {
      amount_cents: 2000,
      side: 'S',
      account: '10000',
      contra_account: '1590',
      document_date: '2026-06-05',
      document_number: 'RE-2026-00001',
      posting_text: 'Kühlbox-Pfand "groß"; ohne USt.',
    },
    {
      amount_cents: 5,
      side: 'H',
      account: '1000',
      contra_account: '10000',
      document_date: '2026-06-17',
      document_number: 'HD-26-ABCD',
      posting_text: 'Erstattung bar, Müller – 5 ct €',
    },
  ],
};

describe('DATEV EXTF Buchungsstapel', () => {
  const text = buildExtfText(input);
  const lines = text.split('\r\n');

  it('ends every line in CR LF and has header, headings and one line per posting', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(2 + input.postings.length);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('writes the 31 header fields as the format description specifies', () => {
    const header = fields(lines[0]);
    expect(header).toHaveLength(HEADER_FIELD_COUNT);
    expect(HEADER_FIELD_COUNT).toBe(31);
    expect(header.slice(0, 6)).toEqual(['"EXTF"', '700', '21', '"Buchungsstapel"', '13', '20260701093015123']);
    expect(header[10]).toBe('29098'); // Beraternummer
    expect(header[11]).toBe('55003'); // Mandantennummer
    expect(header[12]).toBe('20260101'); // WJ-Beginn
    expect(header[13]).toBe('4'); // Sachkontenlänge
    expect(header[14]).toBe('20260601'); // Datum vom
    expect(header[15]).toBe('20260630'); // Datum bis
    expect(header[16]).toBe('"Hafen Düsseldorf 06/2026"');
    expect(header[21]).toBe('"EUR"');
    expect(header[26]).toBe('"03"'); // SKR03
  });

  it('writes the 125 column headings and 125 fields on every posting line', () => {
    expect(COLUMNS).toHaveLength(125);
    expect(fields(lines[1])).toEqual([...COLUMNS]);
    expect(COLUMNS[0]).toBe('Umsatz (ohne Soll/Haben-Kz)');
    expect(COLUMNS[124]).toBe('Abw. Skontokonto');
    for (const line of lines.slice(2)) expect(fields(line)).toHaveLength(125);
  });

  it('fills Umsatz with a decimal comma, the side, WKZ, accounts, Belegdatum TTMM, Belegfeld 1 and the quoted text', () => {
    const [first, second, third] = lines.slice(2).map(fields);
    expect(first.slice(0, 14)).toEqual([
      '119,00',
      '"S"',
      '"EUR"',
      '',
      '',
      '""',
      '10000',
      '8400',
      '""',
      '0506',
      '"RE-2026-00001"',
      '""',
      '',
      '"Rechnung RE-2026-00001, HD-26-ABCD, 19 % USt."',
    ]);
    expect(second[13]).toBe('"Kühlbox-Pfand ""groß""; ohne USt."');
    expect(third.slice(0, 11)).toEqual(['0,05', '"H"', '"EUR"', '', '', '""', '1000', '10000', '""', '1706', '"HD-26-ABCD"']);
  });

  it('formats amounts positive with two decimals and refuses zero or negative ones', () => {
    expect(formatAmount(123456789)).toBe('1234567,89');
    expect(formatAmount(100)).toBe('1,00');
    expect(() => formatAmount(0)).toThrow();
    expect(() => formatAmount(-5)).toThrow();
    expect(() => formatAmount(1.5)).toThrow();
  });

  it('quotes text, doubles inner quotes, drops control characters and cuts Buchungstext to 60', () => {
    expect(textField('a"b')).toBe('"a""b"');
    expect(textField('a\r\nb\tc')).toBe('"a  b c"');
    const long = buildExtfText({ ...input, postings: [{ ...input.postings[0], posting_text: 'x'.repeat(80) }] }).split('\r\n')[2];
    expect(fields(long)[13]).toBe(`"${'x'.repeat(60)}"`);
  });

  it('encodes in Windows-1252: umlauts, ß and € are single bytes, the rest of the file ASCII', () => {
    const bytes = buildExtf(input);
    expect(bytes.length).toBe(Array.from(text).length);
    expect(new TextDecoder('windows-1252').decode(bytes)).toBe(text);
    expect(Array.from(encodeWindows1252('Ä Ö Ü ä ö ü ß € –'))).toEqual([
      0xc4, 0x20, 0xd6, 0x20, 0xdc, 0x20, 0xe4, 0x20, 0xf6, 0x20, 0xfc, 0x20, 0xdf, 0x20, 0x80, 0x20, 0x96,
    ]);
    expect(Array.from(encodeWindows1252('ł😀'))).toEqual([0x3f, 0x3f]);
    // No byte order mark: the default code page needs none.
    expect(bytes[0]).toBe(0x22);
  });

  it('finds the fiscal year start and names the file EXTF_…csv', () => {
    expect(fiscalYearStart('2026-03-31', '04-01')).toBe('2025-04-01');
    expect(fiscalYearStart('2026-04-01', '04-01')).toBe('2026-04-01');
    expect(headerLine({ ...input, settings: { ...input.settings, fiscal_year_start: '07-01' } }).split(';')[12]).toBe('20250701');
    expect(extfFileName('2026-06-01', '2026-06-30')).toBe('EXTF_Buchungsstapel_20260601_20260630.csv');
  });
});
