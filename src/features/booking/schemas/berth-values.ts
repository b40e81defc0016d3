import { addDaysIso, berlinToday, formatBerlinTime } from '@/lib/dates';

/**
 * Step 1's values and what the flow does with them, without zod: the first screen of
 * /start/booking renders and reads them, and loads the schema (berth-data.ts, zod) only when the
 * form is first used (step-berth-data.tsx). berth-data.ts re-exports all of it.
 */

/** Kinds of stay bookable online; long-term berths go through the application instead. */
export const stayKinds = ['overnight', 'day', 'fair'] as const;
export type StayKind = (typeof stayKinds)[number];

/** Bounds of docs/architecture.md "Small things" and "Bookings". */
export const boatBounds = {
  length: { min: 1, max: 60 },
  width: { min: 0.5, max: 15 },
  // The draught (ADR 0053 "Draught against depth"): asked, optional; the database checks it again.
  draught: { min: 0.1, max: 5 },
  nameMax: 60,
  tagMax: 60,
  maxNights: 90,
} as const;
export const dayWindow = { from: '08:00', to: '22:00', maxMinutes: 5 * 60 } as const;

/** "HH:MM" as minutes of the day; NaN when it is not a time. */
export function minutesOf(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
}
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The quarter hours a day stay may start or end at (08:00 to 22:00), for the time selects. */
export const dayTimes: readonly string[] = Array.from({ length: (22 - 8) * 4 + 1 }, (_, i) => hhmm(8 * 60 + i * 15));

/**
 * The first day window still bookable on `day` at `now` (Düsseldorf time): 10:00-14:00 on a later
 * day; today from the next quarter hour (not before 10:00) for up to 4 hours until 22:00; null
 * when less than an hour of today's window is left (or the day is past).
 */
export function dayWindowOn(day: string, now: Date = new Date()): { dayStart: string; dayEnd: string } | null {
  const today = berlinToday(now);
  if (day > today) return { dayStart: '10:00', dayEnd: '14:00' };
  if (day < today) return null;
  const start = Math.max(10 * 60, Math.ceil(minutesOf(formatBerlinTime(now)) / 15) * 15);
  const end = Math.min(start + 4 * 60, minutesOf(dayWindow.to));
  return end - start >= 60 ? { dayStart: hhmm(start), dayEnd: hhmm(end) } : null;
}

/**
 * Step 1's first values, valid at `now` (issue 40 item 4): an overnight stay from today to
 * tomorrow, and a day window that has not passed (today's next one, else tomorrow's).
 */
export function defaultBerthData(now: Date = new Date()): BerthDataValues {
  const today = berlinToday(now);
  return {
    ...emptyBerthData,
    arrival: today,
    departure: addDaysIso(today, 1),
    ...(dayWindowOn(today, now) ?? dayWindowOn(addDaysIso(today, 1), now)),
  };
}

/** The day a stay ends on (the departure; a day stay: its day), which the booking horizon limits. */
export const lastDayOf = (v: Pick<BerthDataValues, 'kind' | 'arrival' | 'departure'>) => (v.kind === 'day' ? v.arrival : v.departure);

/** Parses a decimal typed with a comma or a point ("9,5" or "9.5"); NaN when it is not a number. */
export function parseDecimal(value: string): number {
  const v = value.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
}

/** The draught in m, or null when not given (also for a flow saved before the field existed). */
export function draughtOf(v: Pick<BerthDataValues, 'boatDraught'>): number | null {
  const raw = (v.boatDraught ?? '').trim();
  return raw ? parseDecimal(raw) : null;
}

/** Step 1's values (berth-data.ts checks at compile time that its schema gives exactly these). */
export interface BerthDataValues {
  kind: StayKind;
  arrival: string;
  departure: string;
  dayStart: string;
  dayEnd: string;
  boatLength: string;
  boatWidth: string;
  /** Optional: '' when not given (no depth test). */
  boatDraught: string;
  boatName: string;
  boatTag: string;
}

export const emptyBerthData: BerthDataValues = {
  kind: 'overnight',
  arrival: '',
  departure: '',
  dayStart: '10:00',
  dayEnd: '14:00',
  boatLength: '',
  boatWidth: '',
  boatDraught: '',
  boatName: '',
  boatTag: '',
};

/** The stay as the database functions take it (p_kind, p_arrival, ...). */
export function stayParams(v: BerthDataValues) {
  const day = v.kind === 'day';
  return {
    p_kind: v.kind,
    p_arrival: v.arrival,
    p_departure: day ? undefined : v.departure,
    p_day_start: day ? v.dayStart : undefined,
    p_day_end: day ? v.dayEnd : undefined,
  };
}
