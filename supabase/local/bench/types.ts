/** One figure of `npm run bench`: median and spread over several runs. */
export interface BenchRow {
  name: string;
  unit: string;
  median: number;
  p95: number;
  runs: number;
  /** Engine, sizes, or anything else that qualifies the figure. */
  note?: string;
}

export function summarise(name: string, unit: string, samples: number[], note?: string): BenchRow {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return { name, unit, median: round(at(0.5)), p95: round(at(0.95)), runs: samples.length, note };
}
