import { describe, expect, it } from 'vitest';
import { berlinMidnight, blocksFor, daysOf, groupByPlace, PLACE_BLOCK, type EntryRow } from '@/features/harbour/calendar/api/calendar';
import {
  barSpan,
  barVisible,
  columnAt,
  readableSpans,
  selectionRange,
  shiftSpan,
  targetColumns,
  targetRow,
} from '@/features/harbour/calendar/api/timeline-layout';

// 2027-03-28 is the spring DST change in Berlin: that day has 23 hours.
const days = daysOf('2027-03-26', '2027-03-30');
const starts = [...days, '2027-03-31'].map(berlinMidnight);
const ms = (iso: string) => Date.parse(iso);

describe('timeline bars from dates', () => {
  it('knows the Berlin midnights, 23 hours on the DST day', () => {
    expect(days).toEqual(['2027-03-26', '2027-03-27', '2027-03-28', '2027-03-29', '2027-03-30']);
    expect(new Date(starts[0]!).toISOString()).toBe('2027-03-25T23:00:00.000Z');
    expect(starts[3]! - starts[2]!).toBe(23 * 3600_000);
    expect(new Date(starts[4]!).toISOString()).toBe('2027-03-29T22:00:00.000Z');
  });

  it('spans a stay from its arrival time to its departure time, across the DST change', () => {
    // Arrives 27th 14:00 CET, leaves 29th 12:00 CEST.
    const bar = barSpan(ms('2027-03-27T13:00:00Z'), ms('2027-03-29T10:00:00Z'), starts)!;
    expect(bar.start).toBeCloseTo(1 + 14 / 24, 6);
    expect(bar.end).toBeCloseTo(3 + 12 / 24, 6);
    expect(bar.clippedStart || bar.clippedEnd).toBe(false);
    // Half of the 23-hour day is 11.5 hours in.
    expect(columnAt(starts[2]! + 11.5 * 3600_000, starts)).toBeCloseTo(2.5, 6);
  });

  it('ends a block at Berlin midnight exactly on the day boundary (not on the next day)', () => {
    const bar = barSpan(ms('2027-03-29T22:00:00Z'), ms('2027-03-30T22:00:00Z'), starts)!;
    expect(bar).toEqual({ start: 4, end: 5, clippedStart: false, clippedEnd: false });
  });

  it('clips to the days shown and flags the clipped ends; open-ended holdings run to the end', () => {
    expect(barSpan(ms('2026-01-01T00:00:00Z'), null, starts)).toEqual({ start: 0, end: 5, clippedStart: true, clippedEnd: true });
    expect(barSpan(ms('2027-03-20T10:00:00Z'), ms('2027-03-27T11:00:00Z'), starts)).toMatchObject({
      start: 0,
      clippedStart: true,
      clippedEnd: false,
    });
    expect(barSpan(ms('2027-03-30T10:00:00Z'), ms('2027-04-03T10:00:00Z'), starts)).toMatchObject({
      end: 5,
      clippedStart: false,
      clippedEnd: true,
    });
  });

  it('leaves out stays wholly outside the days shown (and empty ones)', () => {
    expect(barSpan(ms('2027-03-20T10:00:00Z'), starts[0]!, starts)).toBeNull();
    expect(barSpan(starts[5]!, ms('2027-04-03T10:00:00Z'), starts)).toBeNull();
    expect(barSpan(starts[1]!, starts[1]!, starts)).toBeNull();
    expect(barSpan(starts[0]!, starts[1]!, [starts[0]!])).toBeNull();
  });
});

describe('timeline virtual columns, selection and drop rows', () => {
  it('shows a bar only when it touches the visible columns', () => {
    const bar = { start: 1.5, end: 3.5, clippedStart: false, clippedEnd: false };
    expect(barVisible(bar, 0, 1)).toBe(true);
    expect(barVisible(bar, 3, 4)).toBe(true);
    expect(barVisible(bar, 4, 4)).toBe(false);
    expect(barVisible({ ...bar, start: 0, end: 1 }, 1, 4)).toBe(false);
  });

  it('selects whole days between two pointer columns, in order, inside the range', () => {
    expect(selectionRange(3.7, 1.2, 5)).toEqual({ from: 1, to: 3 });
    expect(selectionRange(-2, 9, 5)).toEqual({ from: 0, to: 4 });
    expect(selectionRange(2.1, 2.9, 5)).toEqual({ from: 2, to: 2 });
  });

  it('drops a dragged bar on the nearest row, never outside the list', () => {
    expect(targetRow(3, 41, 40, 10)).toBe(4);
    expect(targetRow(3, 19, 40, 10)).toBe(3);
    expect(targetRow(3, -100, 40, 10)).toBe(1);
    expect(targetRow(3, -1000, 40, 10)).toBe(0);
    expect(targetRow(3, 1000, 40, 10)).toBe(9);
  });

  it('groups occupations by berth in start order, with the berth name', () => {
    const row = (id: string, place: string, start: string): EntryRow => ({
      id,
      place_id: place,
      type: 'reservation',
      order_id: 'o',
      order_status: 'confirmed',
      starts_at: start,
      ends_at: '2027-04-01T10:00:00Z',
      note: null,
      boat_name: 'B',
      guest: 'G',
      block_reason: null,
    });
    const grouped = groupByPlace(
      [row('b', 'p1', '2027-03-28T10:00:00Z'), row('a', 'p1', '2027-03-27T10:00:00Z'), row('c', 'p2', '2027-03-27T10:00:00Z')],
      new Map([['p1', 'A1']]),
    );
    expect(grouped.p1!.map((e) => e.id)).toEqual(['a', 'b']);
    expect(grouped.p1![0]!.place_name).toBe('A1');
    expect(grouped.p2![0]!.place_name).toBe('');
  });
});

describe('a bar dragged to other days', () => {
  it('snaps a sideways drag to whole day columns', () => {
    expect(targetColumns(0, 72)).toBe(0);
    expect(targetColumns(150, 72)).toBe(2);
    expect(targetColumns(-100, 72)).toBe(-1);
    expect(targetColumns(-20, 72)).toBe(0);
    expect(targetColumns(50, 0)).toBe(0);
  });

  it('shifts a stay by whole days, keeping its length in columns, and clips it at the edges', () => {
    // 26th 14:00 CET to 27th 12:00 CET, two days later: 28th 14:00 CEST to 29th 12:00 CEST.
    const shifted = shiftSpan(ms('2027-03-26T13:00:00Z'), ms('2027-03-27T11:00:00Z'), 2, starts)!;
    expect(shifted.start).toBeCloseTo(2 + 14 / 24, 6);
    expect(shifted.end).toBeCloseTo(3 + 12 / 24, 6);
    expect(shifted.clippedStart || shifted.clippedEnd).toBe(false);
    // Four days later it runs past the last day shown (the 30th).
    const late = shiftSpan(ms('2027-03-26T13:00:00Z'), ms('2027-03-27T11:00:00Z'), 4, starts)!;
    expect(late.end).toBe(5);
    expect(late.clippedEnd).toBe(true);
    // One day earlier it starts before the first day shown.
    expect(shiftSpan(ms('2027-03-26T13:00:00Z'), ms('2027-03-27T11:00:00Z'), -1, starts)).toMatchObject({ start: 0, clippedStart: true });
    // Far away: not shown.
    expect(shiftSpan(ms('2027-03-26T13:00:00Z'), ms('2027-03-27T11:00:00Z'), 10, starts)).toBeNull();
    // No shift: the bar as it is.
    expect(shiftSpan(ms('2027-03-26T13:00:00Z'), ms('2027-03-27T11:00:00Z'), 0, starts)).toEqual(
      barSpan(ms('2027-03-26T13:00:00Z'), ms('2027-03-27T11:00:00Z'), starts),
    );
  });
});

describe('blocksFor: which blocks of berths the timeline loads', () => {
  it('the block of the rows in the DOM and the one below, inside the list', () => {
    expect(blocksFor(0, 20, 1058)).toEqual([0, 1]);
    expect(blocksFor(45, 60, 1058)).toEqual([0, 1, 2]);
    expect(blocksFor(1040, 1057, 1058)).toEqual([20, 21]);
    expect(blocksFor(0, 10, 30)).toEqual([0]);
    expect(blocksFor(0, 0, 0)).toEqual([]);
    // Every row of the list lies in a block it returns.
    for (const [first, last] of [
      [0, 0],
      [49, 50],
      [99, 149],
      [1000, 1057],
    ] as const) {
      const blocks = blocksFor(first, last, 1058);
      for (let row = first; row <= last; row++) expect(blocks).toContain(Math.floor(row / PLACE_BLOCK));
    }
  });
});

describe("readableSpans: a day guest's hours are drawn across the day (issue 40)", () => {
  const bar = (start: number, end: number) => ({ span: { start, end, clippedStart: false, clippedEnd: false } });
  it('a 10:00-14:00 stay alone in its day fills the day column', () => {
    expect(readableSpans([bar(2 + 10 / 24, 2 + 14 / 24)])).toEqual([{ start: 2, end: 3 }]);
  });
  it('two stays in one day share it without overlapping', () => {
    const [a, b] = readableSpans([bar(1 + 9 / 24, 1 + 12 / 24), bar(1 + 14 / 24, 1 + 18 / 24)]);
    expect(a).toEqual({ start: 1, end: 1 + 14 / 24 });
    expect(b).toEqual({ start: 1 + 12 / 24, end: 2 });
  });
  it("a night's stay (14:00 to 12:00 next day) and a longer one keep their own span", () => {
    expect(readableSpans([bar(14 / 24, 1.5), bar(1 + 14 / 24, 4.5)])).toEqual([
      { start: 14 / 24, end: 1.5 },
      { start: 1 + 14 / 24, end: 4.5 },
    ]);
  });
  it('does not reach into a stay departing the same morning', () => {
    expect(readableSpans([bar(-1, 3 + 12 / 24), bar(3 + 13 / 24, 3 + 17 / 24)])[1]).toEqual({ start: 3.5, end: 4 });
  });
});
