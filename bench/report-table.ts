/**
 * The table of bench/report.md as data: read it back, merge a run's figures into it, write it
 * out. Pure (no file system), so the merge is unit-tested (tests/unit/bench-report.test.ts);
 * scripts/bench.ts does the reading, the measuring and the writing.
 *
 * A figure is identified by its benchmark module, its name, its engine and its unit. A run
 * replaces the row of each figure it measured and keeps every other row with the date it was
 * measured on, so the report holds one current row per figure and says how old each one is.
 */

/** One row of the report's table, as text (numbers already formatted). */
export interface ReportRow {
  bench: string;
  figure: string;
  engine: string;
  median: string;
  p10p90: string;
  minMax: string;
  unit: string;
  runs: string;
  /** When and under what load the figure was measured, e.g. `2026-11-28 (load 1.0)`. */
  measured: string;
  note: string;
}

/** What the header says about the run that wrote the report last. */
export interface LastRun {
  /** The modules it measured (benchmark names). */
  modules: string[];
  machine: string;
  loadStart: string;
  loadEnd: string;
  /** ISO date and time. */
  date: string;
  seconds: number;
}

export const figureKey = (r: Pick<ReportRow, 'bench' | 'figure' | 'engine' | 'unit'>) =>
  `${r.bench}\u0000${r.figure}\u0000${r.engine}\u0000${r.unit}`;

const isFailure = (r: ReportRow) => r.figure.startsWith('FAILED');

/**
 * The report after a run: for each module in `order` (then any other module of `previous`),
 * the rows the run measured, followed by the previous rows of figures it did not measure; a
 * module the run did not touch keeps its rows as they were. A module that was run drops its old
 * FAILED row (it either succeeded or brings a new one).
 */
export function mergeRows(previous: ReportRow[], measured: ReportRow[], order: string[]): ReportRow[] {
  const ran = new Set(measured.map((r) => r.bench));
  const measuredKeys = new Set(measured.map(figureKey));
  const benches = [...new Set([...order, ...previous.map((r) => r.bench), ...measured.map((r) => r.bench)])];
  const out: ReportRow[] = [];
  for (const bench of benches) {
    const fresh = measured.filter((r) => r.bench === bench);
    const kept = previous.filter((r) => r.bench === bench && !measuredKeys.has(figureKey(r)) && !(ran.has(bench) && isFailure(r)));
    // One row per figure, even if a module reported a figure twice: the last one wins.
    const byKey = new Map<string, ReportRow>();
    for (const r of [...fresh, ...kept]) if (!byKey.has(figureKey(r)) || fresh.includes(r)) byKey.set(figureKey(r), r);
    out.push(...byKey.values());
  }
  return out;
}

const columns = ['benchmark', 'figure', 'engine', 'median', 'p10–p90', 'min–max', 'unit', 'runs', 'measured', 'note'] as const;

const cell = (s: string) => s.replace(/\|/g, '/').replace(/\s*\n\s*/g, ' ');

export function renderTable(rows: ReportRow[]): string[] {
  return [
    `| ${columns.join(' | ')} |`,
    '|---|---|---|---:|---:|---:|---|---:|---|---|',
    ...rows.map(
      (r) => `| ${[r.bench, r.figure, r.engine, r.median, r.p10p90, r.minMax, r.unit, r.runs, r.measured, r.note].map(cell).join(' | ')} |`,
    ),
  ];
}

/** The one header paragraph: what the report is, how to read a row, and the run that wrote it last. */
export function renderHeader(rows: ReportRow[], last: LastRun, partial?: { done: number; of: number }): string {
  const dates = rows
    .map((r) => r.measured.slice(0, 10))
    .filter((d) => /^\d{4}-\d\d-\d\d$/.test(d))
    .sort();
  const span = dates.length ? ` Rows were measured between ${dates[0]} and ${dates[dates.length - 1]}.` : '';
  return (
    'Written by `npm run bench` (scripts/bench.ts): one row per figure (benchmark, figure, engine, unit), the latest measurement of it; ' +
    'a run replaces the rows of the figures it measured and keeps the others with the date they were measured on (column _measured_, with the 1-minute load average at the start of that run).' +
    span +
    ' Each figure is the median over the runs shown, with its spread: the 10th–90th percentile and the minimum–maximum of the runs (— for a figure derived from others). ' +
    'The engine is the database (PGlite in process, or a PostgreSQL server) or the browser the figure was measured with. ' +
    (partial ? `Partial: ${partial.done} of ${partial.of} modules of the current run so far. ` : '') +
    `Last run: ${last.modules.join(', ') || 'no module (rewritten)'} on ${last.machine}; load average (1 / 5 / 15 min) ${last.loadStart} at the start, ${last.loadEnd} at the end; ` +
    `${last.date}; it took ${Math.round(last.seconds)} s.`
  );
}

export function renderReport(rows: ReportRow[], last: LastRun, partial?: { done: number; of: number }): string {
  return ['# Benchmark report', '', renderHeader(rows, last, partial), '', ...renderTable(rows), ''].join('\n');
}

const splitRow = (line: string) =>
  line
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split('|')
    .map((c) => c.trim());

const lastRunPattern =
  /Last run: (.*?) on (.*?); load average \(1 \/ 5 \/ 15 min\) (.*?) at the start, (.*?) at the end; (\S+); it took (\d+) s\./;

/** The paragraph of a run in the earlier report format (one per `--update` run). */
const legacyRunPattern =
  /^(?:Re-measured after the full run: (.*?)\. )?Machine: (.*?)\. Load average \(1 \/ 5 \/ 15 min\) (.*?) at the start, (.*?) at the end\. Date: (\S+?)\. Run took (\d+) s\./;

/**
 * Reads a report back: its rows and its last run. Also reads the earlier format (no column
 * *measured*, one paragraph per run): a row is then dated by the latest paragraph that names
 * its module, or by the full run's paragraph.
 */
export function parseReport(text: string): { rows: ReportRow[]; last?: LastRun } {
  const lines = text.split('\n');
  const tableStart = lines.findIndex((l) => /^\|\s*benchmark\s*\|/.test(l));
  if (tableStart < 0) return { rows: [] };
  const head = splitRow(lines[tableStart]);
  const at = (name: string) => head.indexOf(name);
  const body = lines.slice(tableStart + 2).filter((l) => l.startsWith('|'));
  const prose = lines.slice(0, tableStart).join('\n');

  const current = lastRunPattern.exec(prose);
  let last: LastRun | undefined = current
    ? {
        modules: current[1] === 'no module (rewritten)' ? [] : current[1].split(', '),
        machine: current[2],
        loadStart: current[3],
        loadEnd: current[4],
        date: current[5],
        seconds: Number(current[6]),
      }
    : undefined;

  // Earlier format: the date of each module's latest run.
  const legacyDate = new Map<string, string>();
  let fullRunDate: string | undefined;
  if (at('measured') < 0) {
    for (const paragraph of prose.split('\n')) {
      const m = legacyRunPattern.exec(paragraph.trim());
      if (!m) continue;
      const run: LastRun = {
        modules: (m[1] ?? '').split(', ').filter(Boolean),
        machine: m[2],
        loadStart: m[3],
        loadEnd: m[4],
        date: m[5],
        seconds: Number(m[6]),
      };
      const measured = `${run.date.slice(0, 10)} (load ${run.loadStart.split(' / ')[0]})`;
      if (m[1] === undefined) fullRunDate = measured;
      for (const module of run.modules) legacyDate.set(module, measured);
      if (!last || run.date > last.date) last = run;
    }
  }

  const rows = body.map((line): ReportRow => {
    const c = splitRow(line);
    const get = (name: string) => (at(name) < 0 ? '' : (c[at(name)] ?? ''));
    const bench = get('benchmark');
    return {
      bench,
      figure: get('figure'),
      engine: get('engine'),
      median: get('median'),
      p10p90: get('p10–p90'),
      minMax: get('min–max'),
      unit: get('unit'),
      runs: get('runs'),
      measured: at('measured') < 0 ? (legacyDate.get(bench) ?? fullRunDate ?? '') : get('measured'),
      note: get('note'),
    };
  });
  return { rows, last };
}
