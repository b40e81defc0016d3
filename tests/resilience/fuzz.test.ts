/**
 * Fuzz (issue 13, item 5): a few thousand random and boundary requests against every RPC that
 * anon or authenticated may execute and every table and view they may read (both listed from
 * the database itself), as anon, a guest, a customer, harbour staff and an admin: odd argument
 * values and types, missing and extra arguments, GET filters, selects, embeds, orders, limits,
 * Range and Prefer headers, POST/PATCH/DELETE bodies. Bad input must never give a 500 (or a
 * hang, or a dead stack), and afterwards the booking invariants hold: no overlapping
 * occupations, prices equal to their breakdown and to quote_booking for the same stay, no
 * orphan rows. The seed is printed; RESILIENCE_SEED=<seed> repeats a run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, skipBecause, type EngineName } from '../../supabase/local/test/harness/engines.ts';
import { preparedPglite } from '../../supabase/local/test/harness/stack.ts';
import { freshPostgresDatabase } from '../../supabase/local/test/harness/engines.ts';
import { startStack, type Stack } from '../../supabase/local/src/stack.ts';
import type { StackConfig } from '../../supabase/local/src/config.ts';
import { PROJECT, berlinDay, brokenInvariants, client, prng, runSeed, type Prng } from './support.ts';
import { signInWithPassword } from '../../supabase/local/test/harness/demo-staff.ts';

// PGlite runs one request at a time: fewer there, more on Postgres (3,500 in all).
const REQUESTS: Record<EngineName, number> = { pglite: 1000, postgres: 2500 };
const IN_FLIGHT = 4;

interface Arg {
  name: string;
  type: string;
}
interface Rpc {
  name: string;
  args: Arg[];
  volatile: boolean;
}
interface Relation {
  name: string;
  columns: Arg[];
}

const WILD: unknown[] = [
  null,
  '',
  ' ',
  0,
  -1,
  1.5,
  2147483648,
  -2147483649,
  1e308,
  -1e308,
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  true,
  false,
  [],
  {},
  [null],
  'x'.repeat(5000),
  '\u0000',
  'a\u0000b',
  '😀⛵',
  "' or 1=1 --",
  '"; drop table public.orders; --',
  '%',
  '*',
  '\\',
  '(',
  ')',
  ',',
  '.',
  '2026-02-30',
  '0000-01-01',
  '9999-12-31',
  'infinity',
  '-infinity',
  '25:61',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  { a: { b: [1, { c: 'd' }] } },
  Array.from({ length: 50 }, (_, i) => i),
  JSON.parse('['.repeat(200) + ']'.repeat(200)),
];

function typed(rnd: Prng, type: string, pools: Pools): unknown {
  if (rnd.chance(0.15)) return rnd.pick(WILD);
  if (type.endsWith('[]')) return rnd.chance(0.3) ? [] : Array.from({ length: rnd.int(1, 4) }, () => typed(rnd, type.slice(0, -2), pools));
  if (pools.enums[type]) return rnd.chance(0.8) ? rnd.pick(pools.enums[type]) : rnd.pick(['', 'other', 'DAY', null]);
  switch (type) {
    case 'uuid':
      return rnd.pick([...pools.ids, ...pools.ids, crypto.randomUUID(), 'xyz']);
    case 'integer':
    case 'smallint':
    case 'bigint':
      return rnd.pick([0, 1, -1, 5, 100, 2147483647, 2147483648, -32769, '9007199254740993', '12', 'a']);
    case 'numeric':
    case 'double precision':
    case 'real':
      return rnd.pick([0, 0.5, 1, 3.1, 8.5, 9.99, 12.01, 15, 60, 60.01, 0.49, -3, 1e6, '9,5', 'NaN', 1e-30]);
    case 'boolean':
      return rnd.pick([true, false, 'true', 'yes', 1, 'maybe']);
    case 'date':
      return rnd.chance(0.7)
        ? berlinDay(rnd.int(-400, 800))
        : rnd.pick(['2026-13-01', '2026-02-29', '1900-01-01', 'today', 'infinity', '99999-01-01']);
    case 'time without time zone':
    case 'time with time zone':
      return rnd.pick(['08:00', '07:59', '22:00', '22:01', '12:30', '24:00', '23:59:60', '13:00:00.5', '8', 'noon']);
    case 'timestamp with time zone':
    case 'timestamp without time zone':
      return rnd.chance(0.7)
        ? `${berlinDay(rnd.int(-100, 400))}T${rnd.pick(['00:00', '12:00', '23:59'])}:00+01:00`
        : rnd.pick(['epoch', 'infinity', '2026-11-22 25:00', '1e10']);
    case 'json':
    case 'jsonb':
      return rnd.pick([
        {},
        [],
        { name: 'Rheinperle', length: 9.5, width: 3.1 },
        { first_name: 'A', last_name: 'B', email: 'a@b.de' },
        'text',
        1,
        null,
        { length: '9,5' },
        { email: 'x'.repeat(5000) },
      ]);
    case 'text':
    case 'character varying':
    case 'citext':
      return rnd.pick(['', 'a', 'Rheinperle', 'ABC-123', 'de', 'en', 'a@b.de', 'x'.repeat(3000), 'ü€😀', '%_', 'null', '  ']);
    default:
      return rnd.pick(WILD);
  }
}

interface Pools {
  ids: string[];
  places: string[];
  enums: Record<string, string[]>;
}

/** A near-valid stay for the booking functions, so that many calls are accepted. */
function stayArgs(rnd: Prng, pools: Pools, fn: string): Record<string, unknown> {
  const start = rnd.int(rnd.chance(0.1) ? -2 : 1, 120);
  const day = rnd.chance(0.15);
  const args: Record<string, unknown> = {
    p_kind: day ? 'day' : rnd.chance(0.9) ? 'overnight' : 'fair',
    p_arrival: berlinDay(start),
    p_boat_length: rnd.pick([1, 4.2, 6, 7.5, 8.5, 9.99, 10.01, 12, 14.5, 60]),
    ...(day
      ? { p_day_start: rnd.pick(['08:00', '10:00', '17:00']), p_day_end: rnd.pick(['12:00', '13:30', '22:00']) }
      : { p_departure: berlinDay(start + rnd.int(rnd.chance(0.1) ? 0 : 1, rnd.chance(0.1) ? 95 : 6)) }),
  };
  if (rnd.chance(0.2)) args.p_sale_code = rnd.pick(['BOOT2026', 'SOMMER', 'wrong', '']);
  if (fn === 'search_available_places') args.p_boat_width = rnd.pick([0.5, 2.5, 3.1, 4.4, 15]);
  if (fn === 'create_booking' || fn === 'staff_create_booking') {
    const length = args.p_boat_length;
    delete args.p_boat_length;
    args.p_place_id = rnd.pick(pools.places);
    args.p_boat = {
      name: rnd.chance(0.9) ? rnd.pick(['Rheinperle', 'Möwe']) : rnd.pick(['x'.repeat(61), '']),
      length,
      width: rnd.pick([0.5, 2.5, 3.1, 4.4]),
      tag: rnd.pick([null, 'D-1']),
    };
    args.p_person = {
      first_name: 'Fuzz',
      last_name: rnd.chance(0.9) ? 'Tester' : '',
      email: rnd.chance(0.9) ? 'fuzz@example.org' : rnd.pick(['bad', undefined]),
      country: 'DE',
    };
  }
  return args;
}

function filterValue(rnd: Prng, col: Arg, pools: Pools): string {
  const v = typed(rnd, col.type, pools);
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return rnd.chance(0.2) ? rnd.pick(['', '(', '"', '{}', 'null', 'x'.repeat(2000), '%25', 'a,b', '(1,2)']) : s;
}

function tableQuery(rnd: Prng, rel: Relation, all: Relation[], pools: Pools): string {
  const q = new URLSearchParams();
  const cols = rel.columns;
  const col = () => (rnd.chance(0.9) ? rnd.pick(cols) : { name: rnd.pick(['nope', 'id;', '"id"', 'a->b', '']), type: 'text' });
  const sel = rnd.int(0, 6);
  if (sel === 1)
    q.set(
      'select',
      cols
        .filter(() => rnd.chance(0.4))
        .map((c) => c.name)
        .join(',') || '*',
    );
  if (sel === 2) q.set('select', `${col().name}::text,${col().name}`);
  if (sel === 3) q.set('select', `*,${rnd.pick(all).name}(*)`);
  if (sel === 4)
    q.set('select', rnd.pick(['count()', `${col().name}.count()`, 'id,,', '*,x:id', '*,boat->>name', 'price_breakdown->gross_cents']));
  if (sel === 5) q.set('select', rnd.pick(['', '(', '*,!inner', '**', 'a(b(c(d)))']));
  for (let i = rnd.int(0, 3); i > 0; i--) {
    const c = col();
    const op = rnd.pick([
      'eq',
      'neq',
      'gt',
      'gte',
      'lt',
      'lte',
      'like',
      'ilike',
      'is',
      'in',
      'cs',
      'cd',
      'ov',
      'fts',
      'plfts',
      'not.eq',
      'not.in',
      'match',
      'sl',
      'isdistinct',
      'bogus',
    ]);
    const value = op.endsWith('in')
      ? `(${filterValue(rnd, c, pools)},${filterValue(rnd, c, pools)})`
      : op.endsWith('is')
        ? rnd.pick(['null', 'true', 'unknown', 'x'])
        : filterValue(rnd, c, pools);
    q.append(c.name, `${op}.${value}`);
  }
  if (rnd.chance(0.15))
    q.set('or', rnd.pick([`(${col().name}.eq.1,${col().name}.is.null)`, '(a.eq.1', '()', `(and(${col().name}.gt.0,${col().name}.lt.5))`]));
  if (rnd.chance(0.3)) q.set('order', `${col().name}${rnd.pick(['', '.asc', '.desc', '.desc.nullslast', '.sideways'])}`);
  if (rnd.chance(0.3)) q.set('limit', String(rnd.pick([0, 1, 10, -1, 1e20, 'abc', 2147483648])));
  if (rnd.chance(0.2)) q.set('offset', String(rnd.pick([0, 5, -5, 1e20, 'x'])));
  return q.toString();
}

function rowBody(rnd: Prng, rel: Relation, pools: Pools): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const c of rel.columns) if (rnd.chance(0.4)) body[c.name] = typed(rnd, c.type, pools);
  if (rnd.chance(0.1)) body[rnd.pick(['nope', '', 'id"'])] = 1;
  return body;
}

const PREFER = [
  'return=representation',
  'return=minimal',
  'return=headers-only',
  'count=exact',
  'count=planned',
  'count=estimated',
  'tx=rollback',
  'tx=commit',
  'handling=strict',
  'handling=lenient',
  'resolution=merge-duplicates',
  'resolution=ignore-duplicates',
  'missing=default',
  'params=single-object',
  'max-affected=1',
  'bogus=1',
];
const ACCEPT = [
  'application/json',
  'application/vnd.pgrst.object+json',
  'text/csv',
  'application/geo+json',
  'text/plain',
  '*/*',
  'application/vnd.pgrst.plan+json',
  'application/octet-stream',
  'x/y;q=bad',
];

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`fuzz on ${engine.name}`, engine.skip))(
    `fuzz of every RPC and table endpoint on ${engine.name}`,
    { timeout: 180_000 },
    () => {
      let stack: Stack;
      beforeAll(async () => {
        const t0 = performance.now();
        // The test process is a trusted proxy: each persona's X-Forwarded-For is its address (the
        // per-address limits, e.g. wrong sale codes, then count per persona as for real devices).
        const configure = (config: StackConfig) => {
          config.api.trustedProxies = ['127.0.0.1', '::1'];
        };
        stack =
          engine.name === 'postgres'
            ? await startStack({
                workdir: PROJECT,
                databaseUrl: await freshPostgresDatabase('fuzz'),
                port: 0,
                mailPort: 0,
                smtpPort: 0,
                configure,
              })
            : await startStack({
                workdir: PROJECT,
                inMemory: true,
                loadDataDir: await preparedPglite(PROJECT, true),
                port: 0,
                mailPort: 0,
                smtpPort: 0,
                configure,
              });
        // No mail delivery from this stack: the fuzz measures the API, not Deno starting up.
        await stack.db.query(`delete from vault.secrets where name = 'project_url'`);
        console.log(`fuzz on ${engine.name}: stack with the seeded project up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }, 180_000);
      afterAll(async () => {
        await stack?.close();
      });

      it('answers the fuzz findings with 4xx: unknown ids 404 PT404, writes to a read-only view 401/403', async () => {
        const sb = client(stack.url, stack.keys.anonKey, '10.9.1.1');
        const { data, error } = await signInWithPassword(sb, { email: 'hafen@hafen.test', password: 'Hafen1234' });
        if (error) throw error;
        const headers = {
          apikey: stack.keys.anonKey,
          authorization: `Bearer ${data.session!.access_token}`,
          'content-type': 'application/json',
        };
        const call = async (path: string, method: string, body: unknown) => {
          const res = await fetch(`${stack.url}/rest/v1${path}`, { method, headers, body: JSON.stringify(body) });
          return { status: res.status, body: (await res.json()) as { code: string; message: string } };
        };
        const missing = crypto.randomUUID();
        for (const [fn, args, message] of [
          ['cancel_booking', { p_order_id: missing }, 'order_not_found'],
          ['check_in', { p_order_id: missing }, 'order_not_found'],
          ['cancel_berth_block', { p_place_status_id: missing }, 'block_not_found'],
        ] as const) {
          const r = await call(`/rpc/${fn}`, 'POST', args);
          expect([fn, r.status, r.body.code, r.body.message]).toEqual([fn, 404, 'PT404', message]);
        }
        const write = await call('/working_hours_monthly', 'POST', { month: '2026-11-01', entries: 1 });
        expect([write.status, write.body.code]).toEqual([403, '42501']);
        const remove = await call('/working_hours_monthly?month=eq.2026-11-01', 'DELETE', undefined);
        expect([remove.status, remove.body.code]).toEqual([403, '42501']);
      });

      it('never answers 500, and the booking invariants hold afterwards', async () => {
        const seed = runSeed();
        console.log(`fuzz on ${engine.name}: seed ${seed} (RESILIENCE_SEED=${seed} repeats it)`);
        const rnd = prng(seed);
        const db = stack.db;
        const rpcs = (
          await db.query<Rpc>(`
        select p.proname as name, p.provolatile = 'v' as volatile,
               coalesce((select json_agg(json_build_object('name', a.n, 'type', format_type(a.t, null)) order by a.i)
                         from unnest(p.proargnames, coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                     coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs::int]))) with ordinality a(n, t, m, i)
                         where a.m in ('i', 'b', 'v')), '[]') as args
        from pg_proc p join pg_namespace ns on ns.oid = p.pronamespace
        where ns.nspname = 'public' and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
          and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))
        order by 1`)
        ).rows;
        const relations = (
          await db.query<Relation>(`
        select c.relname as name,
               (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, null)) order by a.attnum)
                from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns
        from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
        where ns.nspname = 'public' and c.relkind in ('r', 'v', 'm')
          and (has_table_privilege('anon', c.oid, 'select') or has_table_privilege('authenticated', c.oid, 'select'))
        order by 1`)
        ).rows;
        const enums = Object.fromEntries(
          (
            await db.query<{ name: string; labels: string[] }>(`
          select format_type(t.oid, null) as name, array_agg(e.enumlabel order by e.enumsortorder) as labels
          from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
          where n.nspname = 'public' group by t.oid`)
          ).rows.map((r) => [r.name, r.labels]),
        );
        const places = (await db.query<{ id: string }>(`select id from public.places where not archived`)).rows.map((r) => r.id);
        const ids = (
          await db.query<{ id: string }>(`
        (select id from public.places limit 5) union all (select id from public.orders order by created_at desc limit 10)
        union all (select id from auth.users limit 10) union all (select id from public.news limit 3)`)
        ).rows.map((r) => r.id);
        const pools: Pools = { ids, places, enums };
        console.log(
          `fuzz on ${engine.name}: ${rpcs.length} RPCs (${rpcs.map((r) => r.name).join(', ')}), ${relations.length} tables and views`,
        );
        expect(rpcs.map((r) => r.name)).toContain('create_booking');
        expect(relations.map((r) => r.name)).toContain('places');

        // The personas, signed in through /auth/v1 as the app does.
        const anonKey = stack.keys.anonKey;
        const tokens: Record<string, string | undefined> = { anon: undefined };
        const guestSb = client(stack.url, anonKey, '10.9.0.1');
        tokens.guest = (await guestSb.auth.signInAnonymously()).data.session!.access_token;
        for (const [name, email, password] of [
          ['customer', 'kunde@hafen.test', 'Kunde1234'],
          ['staff', 'hafen@hafen.test', 'Hafen1234'],
          ['admin', 'admin@hafen.test', 'Admin1234'],
        ]) {
          const { data, error } = await signInWithPassword(client(stack.url, anonKey, '10.9.0.2'), { email, password });
          if (error) throw error;
          tokens[name] = data.session!.access_token;
        }
        const personas = Object.keys(tokens);
        const bookingRpcs = rpcs.filter((r) =>
          ['create_booking', 'quote_booking', 'search_available_places', 'staff_create_booking'].includes(r.name),
        );

        const generate = (): Req => {
          const persona = rnd.pick(personas);
          const headers: Record<string, string> = { apikey: anonKey, 'content-type': 'application/json' };
          if (tokens[persona]) headers.authorization = `Bearer ${tokens[persona]}`;
          if (rnd.chance(0.25)) headers.prefer = Array.from({ length: rnd.int(1, 2) }, () => rnd.pick(PREFER)).join(', ');
          if (rnd.chance(0.15)) headers.accept = rnd.pick(ACCEPT);
          if (rnd.chance(0.03)) headers['accept-profile'] = rnd.pick(['private', 'auth', 'public', 'storage', 'x']);
          const roll = rnd.next();
          if (roll < 0.45) {
            // a third of the calls go to the booking functions with near-valid stays
            const fn = roll < 0.15 ? rnd.pick(bookingRpcs) : rnd.pick(rpcs);
            const nearValid = bookingRpcs.includes(fn) && rnd.chance(0.8);
            const args: Record<string, unknown> = nearValid ? stayArgs(rnd, pools, fn.name) : {};
            for (const a of fn.args) if (!(a.name in args) && rnd.chance(nearValid ? 0.05 : 0.85)) args[a.name] = typed(rnd, a.type, pools);
            if (rnd.chance(0.05)) args[rnd.pick(['p_zzz', 'P_KIND', ''])] = 1;
            if (!fn.volatile && rnd.chance(0.2)) {
              const q = new URLSearchParams(
                Object.entries(args).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
              );
              return { method: 'GET', path: `/rpc/${fn.name}?${q}`, headers };
            }
            const body = rnd.chance(0.04)
              ? rnd.pick(['', '[', '[1,2]', '"x"', '{"a":', 'null', JSON.stringify([args, args])])
              : JSON.stringify(args);
            return { method: 'POST', path: `/rpc/${fn.name}`, headers, body };
          }
          const rel = rnd.pick(relations);
          if (roll < 0.8) {
            if (rnd.chance(0.2)) headers.range = rnd.pick(['0-9', '5-2', '0-', 'items=0-4', '-5', 'abc', '0-2147483648']);
            if (rnd.chance(0.1)) headers['range-unit'] = 'items';
            return { method: rnd.chance(0.9) ? 'GET' : 'HEAD', path: `/${rel.name}?${tableQuery(rnd, rel, relations, pools)}`, headers };
          }
          if (roll < 0.97) {
            const method = rnd.pick(['POST', 'POST', 'PATCH', 'DELETE', 'PUT']);
            const q = method === 'POST' ? new URLSearchParams() : new URLSearchParams(tableQuery(rnd, rel, relations, pools));
            if (method === 'POST' && rnd.chance(0.2)) q.set('on_conflict', rnd.pick(rel.columns).name);
            if (method === 'POST' && rnd.chance(0.1))
              q.set(
                'columns',
                rel.columns
                  .slice(0, 2)
                  .map((c) => c.name)
                  .join(','),
              );
            const body =
              method === 'DELETE'
                ? undefined
                : JSON.stringify(
                    method === 'POST' && rnd.chance(0.2) ? [rowBody(rnd, rel, pools), rowBody(rnd, rel, pools)] : rowBody(rnd, rel, pools),
                  );
            return { method, path: `/${rel.name}?${q}`, headers, body };
          }
          return rnd.pick<Req>([
            { method: 'GET', path: `/${'x'.repeat(300)}`, headers },
            { method: 'GET', path: '/rpc/', headers },
            { method: 'POST', path: `/${rel.name}`, headers, body: '{"a":1,' },
            { method: 'PROPFIND', path: `/${rel.name}`, headers },
            { method: 'GET', path: `/${rel.name}?select=${encodeURIComponent('*'.repeat(500))}`, headers },
            {
              method: 'POST',
              path: `/${rel.name}`,
              headers: {
                ...headers,
                'content-type': rnd.pick(['text/csv', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream']),
              },
              body: 'a,b\n1,2',
            },
            { method: 'GET', path: `/${rel.name}?id=eq.${'%F0%9F'.repeat(3)}`, headers },
            { method: 'GET', path: '/', headers },
          ]);
        };

        const failures: { req: Req; status: number; body: string }[] = [];
        const changes: { req: Req; status: number; body: string }[] = [];
        const statuses = new Map<number, number>();
        const bookingOutcomes = new Map<string, number>();
        const booked: { args: Record<string, unknown>; token?: string; price: number }[] = [];
        const requests = Array.from({ length: REQUESTS[engine.name] }, generate);
        const started = performance.now();
        let next = 0;
        const worker = async () => {
          while (next < requests.length) {
            const req = requests[next++];
            let status = 0;
            let text = '';
            let type = '';
            try {
              const res = await fetch(`${stack.url}/rest/v1${req.path}`, {
                method: req.method,
                headers: req.headers,
                body: req.body,
                signal: AbortSignal.timeout(15_000),
              });
              status = res.status;
              type = res.headers.get('content-type') ?? '';
              text = await res.text();
            } catch (error) {
              // fetch's own message is only 'fetch failed': the cause says what the socket saw
              const cause = (error as { cause?: { code?: string; message?: string } }).cause;
              text = `${String(error)}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`;
            }
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (req.path.endsWith('create_booking')) {
              const m = status === 200 ? 'booked' : (/"message":"([^"]*)"/.exec(text)?.[1] ?? String(status));
              bookingOutcomes.set(m, (bookingOutcomes.get(m) ?? 0) + 1);
            }
            if (status === 0 || status >= 500) failures.push({ req, status, body: text.slice(0, 300) });
            if (status >= 200 && status < 300 && req.method !== 'GET' && req.method !== 'HEAD') changes.push({ req, status, body: text });
            // A booking answered as CSV (Accept: text/csv, as PostgREST) is checked by the SQL invariants only.
            if (
              status === 200 &&
              type.includes('json') &&
              ['/rpc/create_booking', '/rpc/staff_create_booking'].includes(req.path) &&
              req.body &&
              !req.headers.prefer?.includes('tx=rollback')
            ) {
              const order = JSON.parse(text) as { price_cents?: number };
              if (typeof order?.price_cents === 'number')
                booked.push({ args: JSON.parse(req.body), token: req.headers.authorization, price: order.price_cents });
            }
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
        const seconds = (performance.now() - started) / 1000;
        console.log(
          `fuzz on ${engine.name}: ${requests.length} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ${booked.length} bookings accepted; create_booking outcomes ${JSON.stringify(Object.fromEntries(bookingOutcomes))}`,
        );
        if (failures.length)
          console.log(
            `fuzz on ${engine.name} failures (seed ${seed}):\n${failures
              .slice(0, 15)
              .map((f) => `${f.status} ${f.req.method} ${f.req.path.slice(0, 300)} ${f.req.body?.slice(0, 300) ?? ''}\n   -> ${f.body}`)
              .join('\n')}`,
          );
        expect(failures.map((f) => `${f.status} ${f.req.method} ${f.req.path.slice(0, 120)}`)).toEqual([]);

        // The invariants, in SQL, over everything the run (and the seed) left.
        const broken = await brokenInvariants(db);
        for (const id of Object.values(broken).flat()) {
          const { rows } = await db.query(
            `select id, kind, status, place_id, starts_at, ends_at, price_cents, price_breakdown, boat from public.orders where id = $1`,
            [id],
          );
          console.log(
            `broken: ${JSON.stringify(rows)}\nchanged by: ${changes
              .filter((c) => `${c.req.body}${c.body}`.includes(id))
              .map((c) => `${c.req.method} ${c.req.path} ${c.req.body} -> ${c.status} ${c.body.slice(0, 400)}`)
              .join('\n')}`,
          );
        }
        expect(broken).toEqual({});
        // Each accepted booking costs what quote_booking says for the same stay, boat and code.
        for (const b of booked.slice(0, 40)) {
          const a = b.args as {
            p_kind: string;
            p_arrival: string;
            p_departure?: string;
            p_day_start?: string;
            p_day_end?: string;
            p_sale_code?: string;
            p_boat: { length: unknown };
          };
          const res = await fetch(`${stack.url}/rest/v1/rpc/quote_booking`, {
            method: 'POST',
            headers: { apikey: anonKey, 'content-type': 'application/json', ...(b.token ? { authorization: b.token } : {}) },
            body: JSON.stringify({
              p_kind: a.p_kind,
              p_arrival: a.p_arrival,
              p_departure: a.p_departure,
              p_day_start: a.p_day_start,
              p_day_end: a.p_day_end,
              p_boat_length: a.p_boat.length,
              p_sale_code: a.p_sale_code || null,
            }),
          });
          expect(res.status).toBe(200);
          expect(((await res.json()) as { gross_cents: number }).gross_cents).toBe(b.price);
        }
        expect(seconds).toBeLessThan(120);
      });
    },
  );
}
