/**
 * `npm run bench`: runs every benchmark module of the project (files named *.bench.ts that
 * export `run(): Promise<BenchRow[]>`) and writes one report: a table in the terminal and
 * bench/report.md, each figure as median and spread (p10-p90, min-max) over its runs, with the
 * machine (cpu, cores, memory, load) and the engine named. Not part of `npm test`.
 * `npm run bench -- <part>[,<part>…]` runs only the modules whose path contains a part and writes
 * reports/bench-<parts>.md instead (bench/report.md stays the full run's). The report is
 * rewritten after every module, marked partial until the run ends.
 * `npm run bench -- --update <part>[,<part>…]` re-measures those modules and replaces only their
 * rows in bench/report.md, adding a line that says when and under what load they were re-run
 * (for a figure that changed after the full run, without another hour-long run).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from '../supabase/local/bench/types.ts';

const root = resolve(import.meta.dirname, '..');
const update = process.argv.includes('--update');
const only = process.argv.slice(2).find((a) => a !== '--update');
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
const files = allFiles.filter((f) => parts.length === 0 || parts.some((p) => relative(root, f).includes(p)));
/** In --update mode: the full report's lines, to keep the header and the rows of the modules not re-run. */
const previous = update ? readFileSync(reportPath, 'utf8').split('\n') : [];
const previousRows = (bench: string) => previous.filter((l) => l.startsWith(`| ${bench} |`));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
const loadAtStart = load();
const machine = `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
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
/** Writes the report so far: after every module (an interrupted run leaves what it measured) and at the end. */
function writeReport(done: boolean) {
  const totalSeconds = sections.reduce((t, s) => t + s.seconds, 0);
  const thisRun =
    `Machine: ${machine}. Load average (1 / 5 / 15 min) ${loadAtStart} at the start, ${load()} at the end. ` +
    `Date: ${new Date().toISOString()}. Run took ${Math.round(totalSeconds)} s.`;
  const rerun = sections.map((s) => benchName(s.file));
  const lines = update
    ? [
        ...previous
          .slice(
            0,
            previous.findIndex((l) => l.startsWith('Each figure is')),
          )
          .filter((l) => !l.startsWith('**Partial')),
        ...(done ? [] : [`**Partial: re-measuring ${sections.length} of ${files.length} modules so far.**`, '']),
        `Re-measured after the full run: ${rerun.join(', ')}. ${thisRun}`,
        '',
      ]
    : ['# Benchmark report', '', ...(done ? [] : [`**Partial: ${sections.length} of ${files.length} modules so far.**`, '']), thisRun, ''];
  lines.push(
    'Each figure is the median over the runs shown, with its spread: the 10th–90th percentile and the minimum–maximum of the runs (— for a figure derived from others). ' +
      'The engine is the database (PGlite in process, or a PostgreSQL server) or the browser the figure was measured with.',
    '',
    '| benchmark | figure | engine | median | p10–p90 | min–max | unit | runs | note |',
    '|---|---|---|---:|---:|---:|---|---:|---|',
  );
  // In --update mode every module keeps its place: re-run ones get their new rows, the others their old ones.
  const order = update ? allFiles.map((f) => relative(root, f)) : sections.map((s) => s.file);
  for (const file of order) {
    const bench = benchName(file);
    const s = sections.find((x) => x.file === file);
    if (!s) {
      lines.push(...previousRows(bench));
      continue;
    }
    for (const r of s.rows) {
      lines.push(
        `| ${bench} | ${r.name} | ${engineOf(r)} | ${num(r.median)} | ${range(r.p10, r.p90)} | ${range(r.min, r.max)} | ${r.unit} | ${r.runs} | ${(r.note ?? '').replace(/\|/g, '/')} |`,
      );
    }
    if (s.error) lines.push(`| ${bench} | FAILED: ${s.error.replace(/\|/g, '/').replace(/\n/g, ' ')} | | | | | | | |`);
  }
  const out = only && !update ? join(root, 'reports', `bench-${only.replace(/[^\w.-]/g, '_')}.md`) : reportPath;
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, lines.join('\n') + '\n');
  if (!done) return;
  console.log('\n' + lines.filter((l) => l.startsWith('| ') && !l.startsWith('| benchmark')).join('\n'));
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
    writeReport(false);
  } catch (error) {
    sections.push({ file: name, rows: [], error: (error as Error).message, seconds: (performance.now() - started) / 1000 });
    console.log(`failed: ${(error as Error).message}`);
    writeReport(false);
  }
}

writeReport(true);
process.exit(sections.some((s) => s.error) ? 1 : 0);
