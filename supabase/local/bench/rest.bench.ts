/**
 * REST overhead: a point select and a 50-row list with one embed through HTTP (/rest/v1, anon
 * key, RLS role switch, JSON built in Postgres) against the very same SQL run straight on the
 * database, on PGlite and (when the server binaries are here) Postgres 15; plus requests per
 * second with 10 concurrent clients.
 *
 * Issue 25: "before" sends the request settings as a parametrised statement of their own after
 * BEGIN (as until session 10), "session 10" sends a read as `begin; settings; read; commit`
 * (on PGlite: settings; read between PGlite's BEGIN and COMMIT), "after" (session 12) as
 * `settings; read`, one simple query and so one implicit transaction (db/request.ts). All three are measured in the same run, in turn request by request, and the
 * HTTP floor (the same fetch client against an empty node:http server) says what any HTTP
 * request costs here before the gateway and REST do anything.
 */
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { startStack, type Stack } from '../src/stack.ts';
import { loadSchema } from '../src/rest/schema.ts';
import { parseSelect, parseFilterKey, parseFilterValue } from '../src/rest/parse.ts';
import { Params, quoteIdent } from '../src/rest/params.ts';
import { Aliases, buildNode } from '../src/rest/plan.ts';
import { readSql } from '../src/rest/query.ts';
import { requestSetup } from '../src/db/request.ts';
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
  {
    name: '50-row list + embed',
    path: '/cities?select=id,name,population,countries(name,code)&limit=50',
    table: 'cities',
    select: 'id,name,population,countries(name,code)',
    filters: [],
    limit: 50,
  },
];

/** The statement the service builds for the case, to run straight on the database. */
async function sqlFor(stack: Stack, c: Case) {
  const cache = await loadSchema(stack.db);
  const table = cache.tables.get(c.table)!;
  const root = buildNode(
    cache,
    table,
    `${quoteIdent('public')}.${quoteIdent(table.name)}`,
    table.name,
    table.name,
    parseSelect(c.select),
    new Aliases(),
  );
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

/** Variants timed in turn, run by run, the order rotating (each with its own CPU time). */
async function timeAll(fns: (() => Promise<unknown>)[]): Promise<(number[] & { cpuMs: number })[]> {
  const out: number[][] = fns.map(() => []);
  const cpu = fns.map(() => 0);
  for (let i = -WARMUP; i < RUNS; i++) {
    for (let j = 0; j < fns.length; j++) {
      const k = (i + WARMUP + j) % fns.length;
      const c = process.cpuUsage();
      const t = performance.now();
      await fns[k]();
      if (i >= 0) {
        out[k].push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpu[k] += (used.user + used.system) / 1000;
      }
    }
  }
  return out.map((xs, k) => Object.assign(xs, { cpuMs: cpu[k] / RUNS }));
}

/** The same fetch client against an empty node:http server: what any HTTP request costs here. */
async function httpFloor(): Promise<{ p50: number; p95: number; samples: number[] }> {
  const body = '[{"id":3}]';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const samples = await timeIt(async () => (await fetch(url, { headers: { apikey: 'x' } })).text());
    return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), samples };
  } finally {
    await new Promise((r) => server.close(r));
  }
}

async function benchEngine(engine: 'PGlite' | 'Postgres', stack: Stack): Promise<BenchRow[]> {
  // enough cities for a 50-row page, each with its country
  await stack.db.exec(
    `insert into public.cities (name, country_id, population) select 'Town ' || g, 1 + g % 4, g * 1000 from generate_series(1, 60) g`,
  );
  const rows: BenchRow[] = [];
  const floor = await httpFloor();
  rows.push(
    summarise(
      `rest HTTP floor: fetch to an empty node:http server (${engine} run)`,
      'ms',
      floor.samples,
      `same client, no gateway, REST or database; p95 ${floor.p95.toFixed(2)}`,
      engine,
    ),
  );
  const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${stack.keys.anonKey}`, 'accept-profile': 'public' };
  for (const c of cases) {
    const url = `${stack.url}/rest/v1${c.path}`;
    const { sql, params } = await sqlFor(stack, c);
    const direct = await stack.db.query<{ body: string }>(sql, params);
    const viaHttp = await (await fetch(url, { headers })).text();
    if (viaHttp !== direct.rows[0].body) throw new Error(`${c.name}: HTTP body differs from the direct SQL result`);
    const once = async () => {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status}`);
      await res.text();
    };
    // before, session 10 and after in turn, so load on the machine falls on all alike
    const [before, s10, http] = await timeAll([
      () => ((requestSetup.batched = false), once()),
      () => ((requestSetup.batched = true), (requestSetup.explicitRead = true), once()),
      () => ((requestSetup.batched = true), (requestSetup.explicitRead = false), once()),
    ]);
    requestSetup.batched = true;
    requestSetup.explicitRead = false;
    const db = await timeIt(() => stack.db.query(sql, params));
    const note = `${engine}; anon key; ${RUNS} sequential runs after ${WARMUP} warm-up; load average ${loadavg()[0].toFixed(1)}`;
    const p95 = (xs: number[]) => quantile(xs, 0.95).toFixed(2);
    const cpuNote = `${engine}; process CPU time per request, mean over the runs (fetch client, gateway, REST and the database share the process)`;
    rows.push(
      summarise(
        `rest ${c.name} via HTTP, before (${engine})`,
        'ms',
        before,
        `${note}; p95 ${p95(before)}; settings as their own parametrised statement`,
      ),
    );
    rows.push(
      summarise(
        `rest ${c.name} via HTTP, session 10 (${engine})`,
        'ms',
        s10,
        `${note}; p95 ${p95(s10)}; a read as begin; settings; read; commit`,
      ),
    );
    rows.push(
      summarise(
        `rest ${c.name} via HTTP (${engine})`,
        'ms',
        http,
        `${note}; p95 ${p95(http)}; a read as settings; read in one implicit transaction`,
      ),
    );
    rows.push(summarise(`rest ${c.name} same SQL on the database (${engine})`, 'ms', db, `${note}; p95 ${p95(db)}`));
    rows.push(derived(`rest ${c.name} CPU per request via HTTP, before (${engine})`, 'ms', before.cpuMs, RUNS, cpuNote));
    rows.push(derived(`rest ${c.name} CPU per request via HTTP, session 10 (${engine})`, 'ms', s10.cpuMs, RUNS, cpuNote));
    rows.push(derived(`rest ${c.name} CPU per request via HTTP (${engine})`, 'ms', http.cpuMs, RUNS, cpuNote));
    rows.push(
      derived(
        `rest ${c.name} CPU per request, same SQL alone (${engine})`,
        'ms',
        db.cpuMs,
        RUNS,
        `${engine}; process CPU time per request, mean over the runs`,
      ),
    );
    for (const [label, xs] of [
      ['before', before],
      ['session 10', s10],
      ['after', http],
    ] as const) {
      rows.push({
        ...derived(
          `rest ${c.name} added by HTTP + REST, ${label} (${engine})`,
          'ms',
          quantile(xs, 0.5) - quantile(db, 0.5),
          RUNS,
          `${note}; difference of the HTTP and direct quantiles; p95 ${(quantile(xs, 0.95) - quantile(db, 0.95)).toFixed(2)}; of it the HTTP floor ${floor.p50.toFixed(2)} (p95 ${floor.p95.toFixed(2)})`,
        ),
        p10: Math.round((quantile(xs, 0.1) - quantile(db, 0.1)) * 100) / 100,
        p90: Math.round((quantile(xs, 0.9) - quantile(db, 0.9)) * 100) / 100,
      });
    }
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
  rows.push(
    summarise(`rest point select, 10 concurrent clients (${engine})`, 'req/s', rates, `${engine}; ${rates.length} rounds of ${seconds} s`),
  );
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
