import { describe, expect, it } from 'vitest';
import {
  csvField,
  formatDecimalHours,
  formatMinutes,
  hoursCsv,
  monthBounds,
  shiftMonth,
  type HoursEntry,
} from '@/features/harbour/hours/api/hours';

const labels = {
  person: 'Person',
  date: 'Datum',
  start: 'Beginn',
  end: 'Ende',
  breakMinutes: 'Pause (Minuten)',
  minutes: 'Minuten',
  hours: 'Stunden',
  note: 'Notiz',
  total: 'Summe',
};
const entry = (over: Partial<HoursEntry>): HoursEntry => ({
  id: 'x',
  user_id: 'u1',
  work_date: '2026-11-02',
  start_time: '08:00',
  end_time: '16:30',
  break_minutes: 30,
  minutes: 480,
  note: null,
  ...over,
});

describe('hours CSV', () => {
  it('quotes separators, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('7,50')).toBe('7,50');
    expect(csvField(null)).toBe('');
  });

  it('starts with a BOM, uses ; and CRLF, a decimal comma in German and a total per person', () => {
    const names = new Map([
      ['u1', 'Heinz Poller'],
      ['u2', 'Ärger, Anna'],
    ]);
    const csv = hoursCsv(
      [
        entry({}),
        entry({ id: 'y', user_id: 'u2', minutes: 45, start_time: '09:00', end_time: '09:45', break_minutes: 0, note: 'Steg; "B"' }),
      ],
      names,
      labels,
      'de',
    );
    expect(csv.startsWith('\uFEFFPerson;Datum;Beginn;Ende;Pause (Minuten);Minuten;Stunden;Notiz\r\n')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[1]).toBe('Ärger, Anna;2026-11-02;09:00;09:45;0;45;0,75;"Steg; ""B"""');
    expect(lines[2]).toBe('Heinz Poller;2026-11-02;08:00;16:30;30;480;8,00;');
    expect(lines).toContain('Summe: Heinz Poller;;;;;480;8,00;');
    expect(hoursCsv([entry({})], names, labels, 'en')).toContain(';480;8.00;');
  });

  it('formats minutes and months', () => {
    expect(formatMinutes(455)).toBe('7:35');
    expect(formatMinutes(0)).toBe('0:00');
    expect(formatDecimalHours(455, 'de')).toBe('7,58');
    expect(formatDecimalHours(455, 'en')).toBe('7.58');
    expect(monthBounds('2026-12')).toEqual({ from: '2026-12-01', until: '2027-01-01' });
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });
});
