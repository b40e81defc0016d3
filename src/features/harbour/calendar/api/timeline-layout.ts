/**
 * Pure layout math of the staff booking timeline: where a stay's bar sits among the day columns,
 * clipped to the days shown, and which day columns a drag over empty cells selects. Positions are
 * in column units (1 = one Berlin day), so the component multiplies by its column width.
 */

/** A bar among the day columns: [start, end) in columns; clipped ends are flagged (an arrow shows the stay goes on). */
export interface BarSpan {
  start: number;
  end: number;
  clippedStart: boolean;
  clippedEnd: boolean;
}

/**
 * The bar of [startMs, endMs) among days whose Berlin midnights are `dayStarts` (one more than
 * the days shown: the last is the end of the last day). A day is as long as it is in Berlin (23
 * or 25 hours at the DST changes), so 14:00 is 14/24 of a normal day in. endMs null is an
 * open-ended holding: it runs to the end. Null when the stay lies wholly outside the days shown.
 */
export function barSpan(startMs: number, endMs: number | null, dayStarts: readonly number[]): BarSpan | null {
  const n = dayStarts.length - 1;
  if (n < 1) return null;
  const first = dayStarts[0]!;
  const last = dayStarts[n]!;
  const end = endMs ?? Number.POSITIVE_INFINITY;
  if (end <= first || startMs >= last || end <= startMs) return null;
  const clippedStart = startMs < first;
  const clippedEnd = end > last;
  return {
    start: clippedStart ? 0 : columnAt(startMs, dayStarts),
    end: clippedEnd ? n : columnAt(end, dayStarts),
    clippedStart,
    clippedEnd,
  };
}

/** The fractional column of an instant inside [dayStarts[0], dayStarts[n]] (binary search over the days). */
export function columnAt(ms: number, dayStarts: readonly number[]): number {
  let lo = 0;
  let hi = dayStarts.length - 1;
  if (ms <= dayStarts[0]!) return 0;
  if (ms >= dayStarts[hi]!) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (dayStarts[mid]! <= ms) lo = mid;
    else hi = mid;
  }
  const a = dayStarts[lo]!;
  const b = dayStarts[lo + 1]!;
  return lo + (ms - a) / (b - a);
}

/** Whether a bar [start, end) shows in the visible columns [firstCol, lastCol] (inclusive indices). */
export function barVisible(bar: BarSpan, firstCol: number, lastCol: number): boolean {
  return bar.end > firstCol && bar.start < lastCol + 1;
}

/** The day columns [from, to] (inclusive, ordered) between two columns a drag touched, kept inside [0, n). */
export function selectionRange(a: number, b: number, n: number): { from: number; to: number } {
  const clamp = (c: number) => Math.min(Math.max(Math.floor(c), 0), n - 1);
  const x = clamp(a);
  const y = clamp(b);
  return { from: Math.min(x, y), to: Math.max(x, y) };
}

/** The row a bar dragged by `deltaY` pixels lands on (rows of `rowHeight`), kept inside [0, rows). */
export function targetRow(origin: number, deltaY: number, rowHeight: number, rows: number): number {
  return Math.min(Math.max(origin + Math.round(deltaY / rowHeight), 0), rows - 1);
}

/** The whole days a bar dragged by `deltaX` pixels is shifted by (columns of `colWidth`; the drag snaps to them). */
export function targetColumns(deltaX: number, colWidth: number): number {
  if (!(colWidth > 0)) return 0;
  return Math.round(deltaX / colWidth) || 0;
}

/**
 * The bar of a stay shifted by `days` whole days, among the days shown: each day start moves to
 * the same time `days` later (the columns of the day it lands on, so a stay that crosses a DST
 * change keeps its 14:00 and 12:00). Null when the shifted stay lies outside the days shown.
 */
export function shiftSpan(startMs: number, endMs: number | null, days: number, dayStarts: readonly number[]): BarSpan | null {
  if (days === 0) return barSpan(startMs, endMs, dayStarts);
  const n = dayStarts.length - 1;
  if (n < 1) return null;
  // Columns are day-aligned: shifting by whole days adds `days` columns to an unclipped end.
  const full = barSpanUnclipped(startMs, endMs, dayStarts);
  if (!full) return null;
  const start = full.start + days;
  const end = full.end + days;
  if (end <= 0 || start >= n || end <= start) return null;
  return { start: Math.max(start, 0), end: Math.min(end, n), clippedStart: start < 0, clippedEnd: end > n };
}

/** A bar's columns without clipping: before the first day negative, after the last beyond n (whole days past the edges). */
function barSpanUnclipped(startMs: number, endMs: number | null, dayStarts: readonly number[]): { start: number; end: number } | null {
  const n = dayStarts.length - 1;
  const first = dayStarts[0]!;
  const last = dayStarts[n]!;
  const day = 86_400_000;
  const col = (ms: number) => (ms < first ? (ms - first) / day : ms > last ? n + (ms - last) / day : columnAt(ms, dayStarts));
  if (endMs === null) return { start: col(startMs), end: Number.POSITIVE_INFINITY };
  return { start: col(startMs), end: col(endMs) };
}

/**
 * Where each bar is drawn, in columns: its own span, except that a stay within one day (a day
 * guest's hours) is drawn across its whole day (issue 40: a 4-hour stay was a sliver with an
 * "R" in the week view), as far as its neighbours in the row leave room.
 */
export function readableSpans(placed: readonly { span: BarSpan }[]): { start: number; end: number }[] {
  return placed.map(({ span }) => {
    // Only a stay inside one day (a night's stay crosses midnight and is drawn as it is).
    if (Math.ceil(span.end) - Math.floor(span.start) > 1 || span.clippedStart || span.clippedEnd)
      return { start: span.start, end: span.end };
    let lo = Math.floor(span.start);
    let hi = lo + 1;
    for (const other of placed) {
      if (other.span === span) continue;
      if (other.span.end <= span.start) lo = Math.max(lo, other.span.end);
      else if (other.span.start >= span.end) hi = Math.min(hi, other.span.start);
    }
    return { start: Math.min(lo, span.start), end: Math.max(hi, span.end) };
  });
}
