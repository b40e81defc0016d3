// Issue 40 items 4, 6 and 10: the messages of the shared date and number rules (src/lib/
// validation-messages.ts) and step 1's checks of the past, fairs and the booking horizon, in
// both languages, before anything reaches the database.
import { describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { dayProblem, numberProblem } from '@/lib/validation';
import { berthDataSchema, dayWindowOn, defaultBerthData } from '@/features/booking/schemas/berth-data';
import { metresField } from '@/features/account/schemas/profile';

const texts = {
  de: {
    missing: 'Dieses Datum gibt es nicht',
    required: 'Pflichtfeld',
    format: 'Bitte ein Datum wie 24.12.2026 eingeben',
    positive: 'Bitte eine positive Zahl von 1 bis 60 m eingeben',
    range: 'Bitte eine Zahl von 0,5 bis 15 m eingeben',
    boatPositive: 'Bitte eine positive Zahl von 1 bis 60 m eingeben',
    over: 'Dieses Zeitfenster ist heute schon vorbei. Bitte wählen Sie eine spätere Uhrzeit oder einen anderen Tag.',
    fair: 'Messe-Liegeplätze sind nur innerhalb eines Messezeitraums buchbar: Anreise und letzte Nacht müssen in einer Messe liegen.',
    horizon: 'Online buchbar sind Aufenthalte bis Mi., 1. März 2028. Spätere Zeiträume sind noch nicht freigegeben.',
  },
  en: {
    missing: 'This date does not exist',
    required: 'This field is required',
    format: 'Please enter a date such as 24/12/2026',
    positive: 'Please enter a positive number from 1 to 60 m',
    range: 'Please enter a number from 0.5 to 15 m',
    boatPositive: 'Please enter a positive number from 1 to 60 m',
    over: 'This time window is already over today. Please choose a later time or another day.',
    fair: 'Fair berths can only be booked within a fair period: arrival and last night must lie within one fair.',
    horizon: 'Stays can be booked online until Wed, 1 Mar 2028. Later periods are not open for booking yet.',
  },
} as const;

// 18:30 in Düsseldorf on 1 March 2027 (CET).
const evening = new Date('2027-03-01T17:30:00Z');
const rules = { fairs: [{ starts_on: '2027-03-10', ends_on: '2027-03-14' }], lastDay: '2028-03-01' };
const schema = berthDataSchema(
  () => evening,
  () => rules,
);
const boat = { boatLength: '9', boatWidth: '3', boatDraught: '', boatName: 'Möwe', boatTag: '' };
const issues = (values: object) => {
  const result = schema.safeParse({
    kind: 'overnight',
    arrival: '',
    departure: '',
    dayStart: '10:00',
    dayEnd: '14:00',
    ...boat,
    ...values,
  });
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('the evening default (issue 40 item 4)', () => {
  it('is a window that has not passed: tomorrow 10:00-14:00 at 21:30, 18:30-22:00 at 18:20', () => {
    expect(dayWindowOn('2027-03-01', new Date('2027-03-01T20:30:00Z'))).toBeNull();
    expect(defaultBerthData(new Date('2027-03-01T20:30:00Z'))).toMatchObject({
      arrival: '2027-03-01',
      departure: '2027-03-02',
      dayStart: '10:00',
      dayEnd: '14:00',
    });
    expect(dayWindowOn('2027-03-01', new Date('2027-03-01T17:20:00Z'))).toEqual({ dayStart: '18:30', dayEnd: '22:00' });
    expect(dayWindowOn('2027-03-01', new Date('2027-03-01T07:00:00Z'))).toEqual({ dayStart: '10:00', dayEnd: '14:00' });
    expect(dayWindowOn('2027-03-02', evening)).toEqual({ dayStart: '10:00', dayEnd: '14:00' });
  });
});

for (const locale of ['de', 'en'] as const) {
  const x = texts[locale];
  describe(`messages (${locale})`, () => {
    it('31.02.2026 does not exist; empty is required; text is not a date', async () => {
      await activateLocale(locale, '/start/booking');
      expect(dayProblem('31.02.2026')).toBe(x.missing);
      expect(dayProblem('31/02/2026')).toBe(x.missing);
      expect(dayProblem('2026-02-31')).toBe(x.missing);
      expect(dayProblem('')).toBe(x.required);
      expect(dayProblem('morgen')).toBe(x.format);
      expect(dayProblem('2026-02-28')).toBeUndefined();
    });

    it('-3 asks for a positive number with the range; out of range names it', async () => {
      await activateLocale(locale, '/start/booking');
      expect(numberProblem('-3', { min: 1, max: 60, unit: ' m' })).toBe(x.positive);
      expect(numberProblem('20', { min: 0.5, max: 15, unit: ' m' })).toBe(x.range);
      expect(numberProblem('9,5', { min: 1, max: 60, unit: ' m' })).toBeUndefined();
      // The profile's and the long-term application's boat sizes say the same.
      expect(metresField(1, 60, true).safeParse('-3').error?.issues[0]?.message).toBe(x.positive);
    });

    it('step 1: 31.02., -3 m, a window over tonight, a fair stay outside the fair, a stay beyond the horizon', async () => {
      await activateLocale(locale, '/start/booking');
      expect(issues({ arrival: '31.02.2027', departure: '2027-03-05' })).toEqual([`arrival: ${x.missing}`]);
      expect(issues({ arrival: '2027-03-02', departure: '2027-03-03', boatLength: '-3' })).toEqual([`boatLength: ${x.boatPositive}`]);
      expect(issues({ kind: 'day', arrival: '2027-03-01', dayStart: '10:00', dayEnd: '14:00' })).toEqual([`dayEnd: ${x.over}`]);
      expect(issues({ kind: 'day', arrival: '2027-03-01', dayStart: '18:00', dayEnd: '22:00' })).toEqual([]);
      expect(issues({ kind: 'fair', arrival: '2027-03-02', departure: '2027-03-04' })).toEqual([`arrival: ${x.fair}`]);
      expect(issues({ kind: 'fair', arrival: '2027-03-10', departure: '2027-03-15' })).toEqual([]);
      expect(issues({ arrival: '2028-02-29', departure: '2028-03-02' })).toEqual([`departure: ${x.horizon}`]);
      expect(issues({ arrival: '2028-02-29', departure: '2028-03-01' })).toEqual([]);
      expect(issues({ kind: 'day', arrival: '2028-03-02', dayStart: '10:00', dayEnd: '12:00' })).toEqual([`arrival: ${x.horizon}`]);
    });
  });
}
