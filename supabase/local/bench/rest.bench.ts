/**
 * REST overhead: a point select and a 50-row list with one embed through HTTP (/rest/v1, anon
 * key, RLS role switch, JSON built in Postgres) against the very same SQL run straight on the
 * database, on PGlite and (when the server binaries are here) Postgres 15; plus requests per
 * second with 10 concurrent clients.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startStack, type Stack } from '../src/stack.ts';
import { loadSchema } from '../src/rest/schema.ts';
import { parseSelect, parseFilterKey, parseFilterValue } from '../src/rest/parse.ts';
import { Aliases, Params, buildNode, quoteIdent, readSql } from '../src/rest/query.ts';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../test/harness/postgres-server.ts';
import { derived, quantile, skipped, summarise, type BenchRow } from './types.ts';

const fixture = resolve(import.meta.dirname, '../test/fixtures/rest');
const RUNS = 300;
const WARMUP = 30;

interface Case {
  name: string;
  path: string;
  table: string;
  select: string;
  filters: [string, string][];
  limit?: number;
}

const cases: Case[] = [
  { name: 'point select', path: '/cities?select=*&id=eq.3', table: 'cities', select: '*', filters: [['id', 'eq.3']] },
  { name: '50-row list + embed', path: '/cities?select=id,name,population,countries(name,code)&limit=50', table: 'cities', select: 'id,name,population,countries(name,code)', filters: [], limit: 50 },
];

/** The statement the service builds for the case, to run straight on the database. */
async function sqlFor(stack: Stack, c: Case) {
  const cache = await loadSchema(stack.db);
  const table = cache.tables.get(c.table)!;
  const root = buildNode(cache, table, `${quoteIdent('public')}.${quoteIdent(table.name)}`, table.name, table.name, parseSelect(c.select), new Aliases());
  for (const [k, v] of c.filters) {
    const { field } = parseFilterKey(k);
    root.filters.push(parseFilterValue(k, v, field));
  }
  root.limit = c.limit ?? stack.config.api.maxRows;
  root.offset = 0;
  const p = new Params();
  return { sql: readSql(root, p, { count: false, single: false }), params: p.values };
}

/** Wall times of each run, and the process CPU time per run (client and server share it). */
async function timeIt(fn: () => Promise<unknown>): Promise<number[] & { cpuMs: number }> {
  const out: number[] = [];
  let cpu = process.cpuUsage();
  for (let i = -WARMUP; i < RUNS; i++) {
    if (i === 0) cpu = process.cpuUsage();
    const t = performance.now();
    await fn();
    if (i >= 0) out.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  return Object.assign(out, { cpuMs: (used.user + used.system) / 1000 / RUNS });
}


async function benchEngine(engine: 'PGlite' | 'Postgres', stack: Stack): Promise<BenchRow[]> {
  // enough cities for a 50-row page, each with its country
  await stack.db.exec(`insert into public.cities (name, country_id, population) select 'Town ' || g, 1 + g % 4, g * 1000 from generate_series(1, 60) g`);
  const rows: BenchRow[] = [];
  const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${stack.keys.anonKey}`, 'accept-profile': 'public' };
  for (const c of cases) {
    const url = `${stack.url}/rest/v1${c.path}`;
    const { sql, params } = await sqlFor(stack, c);
    const direct = await stack.db.query<{ body: string }>(sql, params);
    const viaHttp = await (await fetch(url, { headers })).text();
    if (viaHttp !== direct.rows[0].body) throw new Error(`${c.name}: HTTP body differs from the direct SQL result`);
    const http = await timeIt(async () => {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status}`);
      await res.text();
    });
    const db = await timeIt(() => stack.db.query(sql, params));
    const note = `${engine}; anon key; ${RUNS} sequential runs after ${WARMUP} warm-up; load average ${loadavg()[0].toFixed(1)}`;
    rows.push(summarise(`rest ${c.name} via HTTP (${engine})`, 'ms', http, note));
    rows.push(summarise(`rest ${c.name} same SQL on the database (${engine})`, 'ms', db, note));
    rows.push(derived(`rest ${c.name} CPU per request via HTTP (${engine})`, 'ms', http.cpuMs, RUNS, `${engine}; process CPU time per request, mean over the runs (fetch client, gateway, REST and the database share the process)`));
    rows.push(derived(`rest ${c.name} CPU per request, same SQL alone (${engine})`, 'ms', db.cpuMs, RUNS, `${engine}; process CPU time per request, mean over the runs`));
    rows.push({
      ...derived(`rest ${c.name} added by HTTP + REST (${engine})`, 'ms', quantile(http, 0.5) - quantile(db, 0.5), RUNS, `${note}; difference of the HTTP and direct quantiles`),
      p10: Math.round((quantile(http, 0.1) - quantile(db, 0.1)) * 100) / 100,
      p90: Math.round((quantile(http, 0.9) - quantile(db, 0.9)) * 100) / 100,
    });
  }
  // throughput: 10 concurrent clients, each sending point selects back to back for a bounded time
  const url = `${stack.url}/rest/v1${cases[0].path}`;
  const seconds = 3;
  const rates: number[] = [];
  for (let round = 0; round < 3; round++) {
    let done = 0;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (performance.now() < until) {
          const res = await fetch(url, { headers });
          await res.text();
          if (res.status === 200) done++;
        }
      }),
    );
    rates.push(done / ((performance.now() - started) / 1000));
  }
  rows.push(summarise(`rest point select, 10 concurrent clients (${engine})`, 'req/s', rates, `${engine}; ${rates.length} rounds of ${seconds} s`));
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const quiet = { info() {}, warn() {}, error() {} };
  const pglite = await startStack({ workdir: fixture, inMemory: true, port: 0, mailPort: 0, smtpPort: 0, log: quiet });
  try {
    rows.push(...(await benchEngine('PGlite', pglite)));
  } finally {
    await pglite.close();
  }
  const bin = findPostgresBin();
  if (!bin) {
    rows.push(skipped('rest on Postgres', 'PostgreSQL server binaries not found'));
    return rows;
  }
  let server: PostgresServer | undefined;
  try {
    server = await startPostgresServer(bin);
    const databaseUrl = await server.createDatabase('rest_bench');
    const pg = await startStack({ workdir: fixture, databaseUrl, port: 0, mailPort: 0, smtpPort: 0, log: quiet });
    try {
      rows.push(...(await benchEngine('Postgres', pg)));
    } finally {
      await pg.close();
    }
  } finally {
    server?.stop();
  }
  return rows;
}
