/**
 * DATEV-Format (EXTF) Buchungsstapel, built as DATEV's published format description says
 * (developer.datev.de, "DATEV-Format": Einstieg, Header, Buchungsstapel, Zeichensatz; sources
 * and choices in docs/adr/0035-datev-export.md):
 *   - line 1 the header (31 fields, header version 700, category 21 "Buchungsstapel", format
 *     version 13), line 2 the column headings (125), then one line per posting;
 *   - fields separated by ";", every line ends in CR LF, text fields in double quotes (inner
 *     quotes doubled, an empty text field as ""), no control characters inside a text, numbers
 *     with a decimal comma and no thousands separator, amounts always positive (the side in the
 *     Soll/Haben-Kennzeichen), Belegdatum as TTMM (read in the header's fiscal year);
 *   - encoded in Windows-1252 (DATEV's default: ISO-8859-1 / code page 1252; Unicode only with
 *     a BOM and not on every import path), so this module encodes without a dependency.
 * Pure: no I/O, no clock (the caller passes the creation time).
 */

export const HEADER_FIELD_COUNT = 31;

/** The 125 columns of format version 13, in DATEV's order and spelling. */
export const COLUMNS: readonly string[] = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
  'Postensperre',
  'Diverse Adressnummer',
  'Geschäftspartnerbank',
  'Sachverhalt',
  'Zinssperre',
  'Beleglink',
  ...Array.from({ length: 8 }, (_, i) => [`Beleginfo - Art ${i + 1}`, `Beleginfo - Inhalt ${i + 1}`]).flat(),
  'KOST1 - Kostenstelle',
  'KOST2 - Kostenstelle',
  'Kost-Menge',
  'EU-Land u. UStID (Bestimmung)',
  'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart',
  'Sachverhalt L+L',
  'Funktionsergänzung L+L',
  'BU 49 Hauptfunktionstyp',
  'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...Array.from({ length: 20 }, (_, i) => [`Zusatzinformation - Art ${i + 1}`, `Zusatzinformation- Inhalt ${i + 1}`]).flat(),
  'Stück',
  'Gewicht',
  'Zahlweise',
  'Forderungsart',
  'Veranlagungsjahr',
  'Zugeordnete Fälligkeit',
  'Skontotyp',
  'Auftragsnummer',
  'Buchungstyp',
  'USt-Schlüssel (Anzahlungen)',
  'EU-Land (Anzahlungen)',
  'Sachverhalt L+L (Anzahlungen)',
  'EU-Steuersatz (Anzahlungen)',
  'Erlöskonto (Anzahlungen)',
  'Herkunft-Kz',
  'Buchungs GUID',
  'KOST-Datum',
  'SEPA-Mandatsreferenz',
  'Skontosperre',
  'Gesellschaftername',
  'Beteiligtennummer',
  'Identifikationsnummer',
  'Zeichnernummer',
  'Postensperre bis',
  'Bezeichnung SoBil-Sachverhalt',
  'Kennzeichen SoBil-Buchung',
  'Festschreibung',
  'Leistungsdatum',
  'Datum Zuord. Steuerperiode',
  'Fälligkeit',
  'Generalumkehr (GU)',
  'Steuersatz',
  'Land',
  'Abrechnungsreferenz',
  'BVV-Position',
  'EU-Land u. UStID (Ursprung)',
  'EU-Steuersatz (Ursprung)',
  'Abw. Skontokonto',
];

/** 1-based numbers of the text columns (quoted; "" when empty); all others are numbers or dates (bare). */
const TEXT_COLUMNS = new Set<number>([
  2,
  3,
  6,
  9,
  11,
  12,
  14,
  16,
  20,
  ...Array.from({ length: 18 }, (_, i) => 21 + i), // Beleginfo 1-8, KOST1, KOST2
  40,
  42,
  ...Array.from({ length: 40 }, (_, i) => 48 + i), // Zusatzinformation 1-20
  91,
  95,
  96,
  98,
  102,
  103,
  105,
  107,
  109,
  110,
  112,
  118,
  120,
  121,
  123,
]);

export interface DatevSettings {
  consultant_number: string;
  client_number: string;
  /** MM-DD */
  fiscal_year_start: string;
  account_length: number;
}

export interface DatevPosting {
  amount_cents: number;
  side: 'S' | 'H';
  account: string;
  contra_account: string;
  /** YYYY-MM-DD (Berlin) */
  document_date: string;
  document_number: string;
  posting_text: string;
}

export interface ExtfInput {
  settings: DatevSettings;
  /** YYYY-MM-DD, inclusive */
  from: string;
  to: string;
  /** The creation time as Berlin wall-clock digits YYYYMMDDHHMMSSFFF. */
  createdAt: string;
  /** Header field 17, at most 30 characters. */
  label: string;
  postings: readonly DatevPosting[];
}

const compactDay = (day: string) => day.replaceAll('-', '');

/** The first day of the fiscal year containing `day`, for a fiscal year beginning on MM-DD. */
export function fiscalYearStart(day: string, start: string): string {
  const year = Number(day.slice(0, 4));
  const candidate = `${year}-${start}`;
  return day >= candidate ? candidate : `${year - 1}-${start}`;
}

/** Cents as DATEV wants an amount: positive, decimal comma, two decimals, no thousands separator. */
export function formatAmount(cents: number): string {
  if (!Number.isInteger(cents) || cents <= 0) throw new RangeError(`DATEV amounts are positive whole cents: ${cents}`);
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

/** A text field: control characters become spaces, inner quotes are doubled, the whole is quoted and cut to `max`. */
export function textField(value: string, max?: number): string {
  let text = Array.from(value, (ch) => (/\p{Cc}/u.test(ch) ? ' ' : ch)).join('');
  if (max !== undefined) text = text.slice(0, max);
  return `"${text.replaceAll('"', '""')}"`;
}

/** Belegfeld 1 allows letters, digits and $ % & * + - / (at most 36). */
const documentNumber = (value: string) => value.replace(/[^A-Za-z0-9$%&*+\-/]/g, '').slice(0, 36);

export function headerLine(input: ExtfInput): string {
  const { settings } = input;
  const q = (v: string, max?: number) => textField(v, max);
  const fields = [
    q('EXTF'),
    '700',
    '21',
    q('Buchungsstapel'),
    '13',
    input.createdAt,
    '',
    q('RE'),
    q(''),
    q(''),
    settings.consultant_number,
    settings.client_number,
    compactDay(fiscalYearStart(input.from, settings.fiscal_year_start)),
    String(settings.account_length),
    compactDay(input.from),
    compactDay(input.to),
    q(input.label, 30),
    q(''),
    '1', // Buchungstyp: Finanzbuchführung
    '0', // Rechnungslegungszweck: unabhängig
    '0', // Festschreibung: nein, the tax adviser reviews and fixes the batch
    q('EUR'),
    '',
    q(''),
    '',
    '',
    q('03'),
    '',
    '',
    q(''),
    q(''),
  ];
  if (fields.length !== HEADER_FIELD_COUNT) throw new Error('header field count');
  return fields.join(';');
}

export function postingLine(p: DatevPosting): string {
  const fields: string[] = COLUMNS.map((_, i) => (TEXT_COLUMNS.has(i + 1) ? '""' : ''));
  const [, month, day] = p.document_date.split('-');
  fields[0] = formatAmount(p.amount_cents);
  fields[1] = textField(p.side);
  fields[2] = textField('EUR');
  fields[6] = p.account;
  fields[7] = p.contra_account;
  fields[9] = `${day}${month}`;
  fields[10] = textField(documentNumber(p.document_number));
  fields[13] = textField(p.posting_text, 60);
  return fields.join(';');
}

/** The whole file as text (before encoding): header, column headings, postings, each line ending in CR LF. */
export function buildExtfText(input: ExtfInput): string {
  return [headerLine(input), COLUMNS.join(';'), ...input.postings.map(postingLine)].map((line) => `${line}\r\n`).join('');
}

// Windows-1252 differs from ISO-8859-1 only in 0x80-0x9F: these are its printable characters there.
const CP1252_HIGH: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

/** Encodes text in Windows-1252, one byte per character; a character it cannot hold becomes "?". */
export function encodeWindows1252(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) out.push(code);
    else out.push(CP1252_HIGH[code] ?? 0x3f);
  }
  return Uint8Array.from(out);
}

/** DATEV's file name: the fixed prefix EXTF_ and .csv. */
export const extfFileName = (from: string, to: string) => `EXTF_Buchungsstapel_${compactDay(from)}_${compactDay(to)}.csv`;

/** The file's bytes. */
export function buildExtf(input: ExtfInput): Uint8Array {
  return encodeWindows1252(buildExtfText(input));
}
