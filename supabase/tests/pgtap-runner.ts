/**
 * Runs the pgTAP files of supabase/tests on a connection: shared by pgtap.test.ts (PGlite and
 * the local stack's bootstrap on PostgreSQL 15) and platform-db.test.ts (the database built as
 * the Supabase platform builds it).
 */
import { expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { pgErrorFields } from '../local/src/db/types.ts';
import { lineAt, splitStatements } from '../local/src/sql-split.ts';

const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.sql'))
  .sort();
/** 000-setup-tests-hooks.sql (installs pgTAP and the persona helpers, committed) and the rest. */
export const [setupFile, ...testFiles] = files;

/** Runs a script (simple query protocol) and returns the rows of every statement. */
export type RunScript = (sql: string) => Promise<Record<string, unknown>[][]>;

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
export async function runFile(run: RunScript, file: string, rollback: () => Promise<void>): Promise<TapReport> {
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

export function assertReport(file: string, report: TapReport) {
  expect(report.failures, `${file}: ${report.failures.length} failure(s)\n${report.failures.join('\n\n')}`).toEqual([]);
  expect(report.passed).toBeGreaterThan(0);
}

/** A pg client that runs scripts for runFile, with hosted Supabase's search_path. */
export async function pgRunner(url: string): Promise<{ run: RunScript; rollback: () => Promise<void>; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set search_path to "$user", public, extensions`);
  return {
    run: async (sql) => {
      const result = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(result) ? result : [result]).map((r) => r.rows as Record<string, unknown>[]);
    },
    rollback: async () => {
      await client.query('rollback').catch(() => {});
    },
    close: () => client.end(),
  };
}
