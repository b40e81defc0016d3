/**
 * `npm run bench`: runs every benchmark module of the project (files named *.bench.ts that
 * export `run(): Promise<BenchRow[]>`) and writes one report: a table in the terminal and
 * bench/report.md, with the machine and engine named. Not part of `npm test`.
 */
import { mkdirSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow } from '../supabase/local/bench/types.ts';

const root = resolve(import.meta.dirname, '..');
const only = process.argv[2];

function find(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : find(join(dir, e.name))) : e.name.endsWith('.bench.ts') ? [join(dir, e.name)] : [],
  );
}

const files = [...find(join(root, 'supabase/local/bench')), ...find(join(root, 'bench'))].filter((f) => !only || f.includes(only));
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const sections: { file: string; rows: BenchRow[]; error?: string; seconds: number }[] = [];

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
}

const lines = [
  '# Benchmark report',
  '',
  `Machine: ${machine}. Date: ${new Date().toISOString()}. Each figure is the median and the 95th percentile over the runs shown.`,
  '',
  '| benchmark | figure | median | p95 | unit | runs | note |',
  '|---|---|---:|---:|---|---:|---|',
];
for (const s of sections) {
  for (const r of s.rows) lines.push(`| ${s.file.replace(/^.*\//, '').replace('.bench.ts', '')} | ${r.name} | ${r.median} | ${r.p95} | ${r.unit} | ${r.runs} | ${r.note ?? ''} |`);
  if (s.error) lines.push(`| ${s.file} | FAILED: ${s.error.replace(/\|/g, '/')} | | | | | |`);
}
mkdirSync(join(root, 'bench'), { recursive: true });
writeFileSync(join(root, 'bench/report.md'), lines.join('\n') + '\n');
console.log('\n' + lines.slice(4).join('\n'));
console.log(`\nReport written to bench/report.md (${machine}).`);
process.exit(sections.some((s) => s.error) ? 1 : 0);
