/**
 * Runs every pgTAP file in supabase/tests (in name order, as `supabase test db` does) against
 * the project's migrations on PGlite and on PostgreSQL 15, and reports each failed assertion.
 * 000-setup-tests-hooks.sql installs pgTAP and the persona helpers and is committed; every
 * other file runs in its own transaction and rolls back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { pgtap } from '@electric-sql/pglite-pgtap';
import { openPglite } from '../local/src/db/pglite.ts';
import { openPostgres } from '../local/src/db/postgres.ts';
import { bootstrapPlatform } from '../local/src/bootstrap/index.ts';
import { migrate } from '../local/src/migrate.ts';
import { engines, freshPostgresDatabase, skipBecause } from '../local/test/harness/engines.ts';
import { preparedPglite } from '../local/test/harness/stack.ts';
import { pgErrorFields } from '../local/src/db/types.ts';
import { lineAt, splitStatements } from '../local/src/sql-split.ts';

const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const [setupFile, ...testFiles] = files;

/** Runs a script (simple query protocol) and returns the rows of every statement. */
type RunScript = (sql: string) => Promise<Record<string, unknown>[][]>;

const TAP_LINE = /^(not )?ok \d+|^\d+\.\.\d+$|^#/;

export interface TapReport {
  planned: number;
  passed: number;
  failures: string[];
}

/** Reads pgTAP's output: every assertion, its diagnostics, and the plan. */
export function parseTap(results: Record<string, unknown>[][]): TapReport {
  const lines: string[] = [];
  for (const rows of results) {
    for (const row of rows) {
      const values = Object.values(row);
      if (values.length !== 1 || typeof values[0] !== 'string') continue;
      for (const line of values[0].split('\n')) if (TAP_LINE.test(line.trimStart())) lines.push(line);
    }
  }
  let planned = -1;
  let passed = 0;
  const failures: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const plan = /^1\.\.(\d+)$/.exec(line);
    if (plan) planned = Number(plan[1]);
    else if (/^ok \d+/.test(line)) passed++;
    else if (/^not ok \d+/.test(line)) {
      const diag: string[] = [];
      while (i + 1 < lines.length && /^#\s/.test(lines[i + 1]) && !/^# Looks like/.test(lines[i + 1])) diag.push(lines[++i]);
      failures.push([line, ...diag].join('\n'));
    } else if (/^# Looks like/.test(line)) failures.push(line);
  }
  if (planned < 0) failures.push('no plan: the file printed no "1..n" line');
  else if (planned !== passed + failures.filter((f) => f.startsWith('not ok')).length) {
    failures.push(`planned ${planned} assertions, ran ${passed + failures.filter((f) => f.startsWith('not ok')).length}`);
  }
  return { planned, passed, failures };
}

/** Runs a file statement by statement, so an SQL error names its line. */
async function runFile(run: RunScript, file: string, rollback: () => Promise<void>): Promise<TapReport> {
  const sql = readFileSync(join(dir, file), 'utf8');
  const results: Record<string, unknown>[][] = [];
  for (const statement of splitStatements(sql)) {
    try {
      results.push(...(await run(statement.text)));
    } catch (error) {
      await rollback();
      const f = pgErrorFields(error);
      const { line } = lineAt(sql, statement.offset + (f.position ? Number(f.position) - 1 : 0));
      const partial = parseTap(results);
      return {
        planned: partial.planned,
        passed: partial.passed,
        failures: [
          ...partial.failures.filter((x) => x.startsWith('not ok')),
          `${file}:${line}: SQL error ${f.code ?? ''} ${f.message}${f.detail ? `\n${f.detail}` : ''}${f.where ? `\n${f.where}` : ''}\n> ${statement.text.trim().slice(0, 300)}`,
        ],
      };
    }
  }
  return parseTap(results);
}

function assertReport(file: string, report: TapReport) {
  expect(report.failures, `${file}: ${report.failures.length} failure(s)\n${report.failures.join('\n\n')}`).toEqual([]);
  expect(report.passed).toBeGreaterThan(0);
}

const totals: Record<string, { assertions: number; ms: number }> = {};
afterAll(() => {
  for (const [engine, t] of Object.entries(totals)) {
    console.log(`pgTAP on ${engine}: ${t.assertions} assertions in ${testFiles.length + 1} files, ${Math.round(t.ms)} ms`);
  }
});

for (const engine of engines()) {
  const suite = `pgTAP on ${engine.name}`;
  const skip =
    engine.name === 'postgres'
      ? engine.skip || (inject('pgtapOnPostgres') ? '' : 'pgTAP not installed for PostgreSQL 15 (apt-get install -y postgresql-15-pgtap)')
      : '';
  describe.skipIf(skip && skipBecause(suite, skip))(suite, () => {
    let run: RunScript;
    let rollback: () => Promise<void>;
    let close: () => Promise<void>;
    const total = { assertions: 0, ms: 0 };
    totals[engine.name] = total;

    beforeAll(async () => {
      const started = performance.now();
      if (engine.name === 'pglite') {
        const db = await openPglite({ loadDataDir: await preparedPglite('supabase', false), extensions: { pgtap } });
        run = async (sql) => (await db.pglite.exec(sql)).map((r) => r.rows as Record<string, unknown>[]);
        rollback = async () => {
          await db.pglite.exec('rollback').catch(() => {});
        };
        close = () => db.close();
      } else {
        const url = await freshPostgresDatabase('pgtap');
        const db = await openPostgres({ connectionString: url, max: 2 });
        await bootstrapPlatform(db);
        await migrate(db, 'supabase', { seed: false });
        await db.close();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`set search_path to "$user", public, extensions`);
        run = async (sql) => {
          const result = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
          return (Array.isArray(result) ? result : [result]).map((r) => r.rows as Record<string, unknown>[]);
        };
        rollback = async () => {
          await client.query('rollback').catch(() => {});
        };
        close = () => client.end();
      }
      const setup = await runFile(run, setupFile, rollback);
      assertReport(setupFile, setup);
      total.assertions += setup.passed;
      total.ms += performance.now() - started;
    });
    afterAll(async () => {
      await close?.();
    });

    for (const file of testFiles) {
      it(file, async () => {
        const started = performance.now();
        const report = await runFile(run, file, rollback);
        total.ms += performance.now() - started;
        total.assertions += report.passed;
        assertReport(file, report);
      });
    }
  });
}
