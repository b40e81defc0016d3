/**
 * One figure of `npm run bench`: the median and the spread over several runs (10th-90th
 * percentile and min-max of the samples), the number of runs, and the engine it was measured on.
 */
export interface BenchRow {
  name: string;
  unit: string;
  median: number;
  /** Spread of the samples; NaN where a figure is derived from others and has none of its own. */
  p10: number;
  p90: number;
  min: number;
  max: number;
  runs: number;
  /** PGlite, Postgres, Chromium … (the report infers it from the note when absent). */
  engine?: string;
  /** Sizes, load, or anything else that qualifies the figure. */
  note?: string;
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The q-quantile of the samples (nearest rank). */
export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function summarise(name: string, unit: string, samples: number[], note?: string, engine?: string): BenchRow {
  if (samples.length === 0) throw new Error(`${name}: no samples`);
  return {
    name,
    unit,
    median: round(quantile(samples, 0.5)),
    p10: round(quantile(samples, 0.1)),
    p90: round(quantile(samples, 0.9)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    runs: samples.length,
    engine,
    note,
  };
}

/** A figure computed from other figures (a ratio, a mean over a batch): no spread of its own. */
export function derived(name: string, unit: string, value: number, runs: number, note?: string, engine?: string): BenchRow {
  return { name, unit, median: round(value), p10: NaN, p90: NaN, min: NaN, max: NaN, runs, engine, note };
}

/** A row saying why a benchmark could not run here. */
export function skipped(name: string, reason: string): BenchRow {
  return { ...derived(name, '-', NaN, 0, `skipped: ${reason}`) };
}
