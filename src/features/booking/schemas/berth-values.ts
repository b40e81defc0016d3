/**
 * Step 1's values and what the flow does with them, without zod: the first screen of
 * /start/booking renders and reads them, and loads the schema (berth-data.ts, zod) only when the
 * form is first used (step-berth-data.tsx). berth-data.ts re-exports all of it.
 */

/** Kinds of stay bookable online; long-term berths go through the application instead. */
export const stayKinds = ['overnight', 'day', 'fair'] as const;
export type StayKind = (typeof stayKinds)[number];

/** Bounds of ARCHITECTURE.md "Small things" and "Bookings". */
export const boatBounds = { length: { min: 1, max: 60 }, width: { min: 0.5, max: 15 }, nameMax: 60, tagMax: 60, maxNights: 90 } as const;
export const dayWindow = { from: '08:00', to: '22:00', maxMinutes: 5 * 60 } as const;

/** Parses a decimal typed with a comma or a point ("9,5" or "9.5"); NaN when it is not a number. */
export function parseDecimal(value: string): number {
  const v = value.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
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
