/**
 * `npm run bench`: runs every benchmark module of the project (files named *.bench.ts that
 * export `run(): Promise<BenchRow[]>`) and writes one report: a table in the terminal and
 * bench/report.md, each figure as median and spread (p10-p90, min-max) over its runs, with the
 * engine named and the date and load it was measured under. Not part of `npm test`.
 * bench/report.md holds one row per figure: a run replaces the rows of the figures it measured
 * and keeps the others with their date (bench/report-table.ts, `mergeRows`); its header is one
 * paragraph naming the machine and load of the last run. The report is rewritten after every
 * module, marked partial until the run ends.
 * `npm run bench -- <part>[,<part>…]` runs only the modules whose path contains a part and writes
 * reports/bench-<parts>.md instead (a report of that run alone; bench/report.md is left alone).
 * `npm run bench -- --update <part>[,<part>…]` runs those modules and merges their figures into
 * bench/report.md (for a figure that changed, without another hour-long run).
 * `npm run bench -- --rewrite` runs nothing and writes bench/report.md again from its rows (e.g.
 * after a change to the report's format).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { BenchRow } from '../supabase/local/bench/types.ts';
import { mergeRows, parseReport, renderReport, renderTable, type ReportRow } from '../bench/report-table.ts';

const root = resolve(import.meta.dirname, '..');
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const update = flags.has('--update');
const rewrite = flags.has('--rewrite');
const only = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (update && !only) throw new Error('--update needs the modules to re-measure, e.g. npm run bench -- --update app,booking');
const reportPath = join(root, 'bench/report.md');
const benchName = (file: string) => file.replace(/^.*\//, '').replace('.bench.ts', '');

function find(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : find(join(dir, e.name))) : e.name.endsWith('.bench.ts') ? [join(dir, e.name)] : [],
  );
}

const parts = only?.split(',').filter(Boolean) ?? [];
const allFiles = [...find(join(root, 'supabase/local/bench')), ...find(join(root, 'bench'))];
const files = rewrite ? [] : allFiles.filter((f) => parts.length === 0 || parts.some((p) => relative(root, f).includes(p)));
/** A run of some modules alone writes a report of its own; a full run, --update and --rewrite merge into bench/report.md. */
const merge = !only || update || rewrite;
/** The report's rows and last run before this run (one row per figure; the rows a run does not measure stay). */
const previous = merge && existsSync(reportPath) ? parseReport(readFileSync(reportPath, 'utf8')) : { rows: [] };
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
const loadAtStart = load();
const startedAt = new Date();
const machine = `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
const measuredOn = `${startedAt.toISOString().slice(0, 10)} (load ${loadAtStart.split(' / ')[0]})`;
const sections: { file: string; rows: BenchRow[]; error?: string; seconds: number }[] = [];

const num = (x: number) => (Number.isFinite(x) ? String(x) : '—');
const range = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) ? `${a}–${b}` : '—');
const engineOf = (r: BenchRow) =>
  r.engine ??
  (/postgres/i.test(`${r.name} ${r.note}`)
    ? 'Postgres'
    : /pglite/i.test(`${r.name} ${r.note}`)
      ? 'PGlite'
      : /chromium|lighthouse/i.test(`${r.name} ${r.note}`)
        ? 'Chromium'
        : /deno/i.test(`${r.note}`)
          ? 'Deno'
          : '—');

/** This run's figures as report rows. */
function measuredRows(): ReportRow[] {
  return sections.flatMap((s) => {
    const bench = benchName(s.file);
    const row = (r: Omit<ReportRow, 'bench' | 'measured'>): ReportRow => ({ bench, measured: measuredOn, ...r });
    return [
      ...s.rows.map((r) =>
        row({
          figure: r.name,
          engine: engineOf(r),
          median: num(r.median),
          p10p90: range(r.p10, r.p90),
          minMax: range(r.min, r.max),
          unit: r.unit,
          runs: String(r.runs),
          note: r.note ?? '',
        }),
      ),
      ...(s.error
        ? [row({ figure: `FAILED: ${s.error}`, engine: '', median: '', p10p90: '', minMax: '', unit: '', runs: '', note: '' })]
        : []),
    ];
  });
}

/** Writes the report so far: after every module (an interrupted run leaves what it measured) and at the end. */
async function writeReport(done: boolean) {
  const fresh = measuredRows();
  const rows = merge ? mergeRows(previous.rows, fresh, allFiles.map(benchName)) : fresh;
  const last =
    rewrite && previous.last
      ? previous.last
      : {
          modules: sections.map((s) => benchName(s.file)),
          machine,
          loadStart: loadAtStart,
          loadEnd: load(),
          date: startedAt.toISOString(),
          seconds: sections.reduce((t, s) => t + s.seconds, 0),
        };
  const out = merge ? reportPath : join(root, 'reports', `bench-${only!.replace(/[^\w.-]/g, '_')}.md`);
  const text = renderReport(rows, last, done ? undefined : { done: sections.length, of: files.length });
  mkdirSync(join(out, '..'), { recursive: true });
  // Formatted as `npx prettier --check .` wants it (the table aligned).
  writeFileSync(out, await format(text, { ...(await resolveConfig(out)), filepath: out }));
  if (!done) return;
  console.log('\n' + renderTable(fresh).slice(2).join('\n'));
  console.log(`\nReport written to ${relative(root, out)} (${machine}; load ${load()}).`);
}

for (const file of files) {
  const name = relative(root, file);
  process.stdout.write(`running ${name} … `);
  const started = performance.now();
  try {
    const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<BenchRow[]> };
    const rows = await mod.run();
    sections.push({ file: name, rows, seconds: (performance.now() - started) / 1000 });
    console.log(`${rows.length} figures`);
  } catch (error) {
    sections.push({ file: name, rows: [], error: (error as Error).message, seconds: (performance.now() - started) / 1000 });
    console.log(`failed: ${(error as Error).message}`);
  }
  await writeReport(false);
}

await writeReport(true);
process.exit(sections.some((s) => s.error) ? 1 : 0);
