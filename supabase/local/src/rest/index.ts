/**
 * The REST service: PostgREST's HTTP semantics at /rest/v1 over the stack's database.
 * Each request: verify the JWT, parse the URL grammar, check names against the schema cache,
 * build one parameterised statement, run it in one transaction as the caller's role
 * (withRequest), and answer with the bytes Postgres built.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Service, StackContext } from '../context.ts';
import { HttpError, bearer, forwardedHeaders, readBody } from '../http.ts';
import { JwtError, type Claims } from '../jwt.ts';
import { UnknownRoleError, readAsRequest, requestSetup, withRequest } from '../db/request.ts';
import { isPgError, type Queryable } from '../db/types.ts';
import { apiError, fromPgError, notImplemented, pgrstBody } from './errors.ts';
import { loadSchema, type PgFunction, type SchemaCache, type Table } from './schema.ts';
import {
  parseColumns,
  parseCount,
  parseFilterKey,
  parseFilterValue,
  parseLogic,
  parseOrder,
  parseSelect,
  splitEmbedKey,
  type SelectItem,
} from './parse.ts';
import { Aliases, Params, buildNode, closest, findNode, quoteIdent, readSql, type Node } from './query.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

interface Prefer {
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: string;
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  tx?: 'commit' | 'rollback';
  strict: boolean;
  maxAffected?: number;
  timezone?: string;
  /** Preferences PostgREST does not know (PGRST122 with handling=strict). */
  invalid: string[];
  raw: Map<string, string>;
}

/** The preferences PostgREST accepts (ApiRequest/Preferences.hs, acceptedPrefs). */
const ACCEPTED_PREFS = new Set([
  'resolution=merge-duplicates',
  'resolution=ignore-duplicates',
  'return=representation',
  'return=minimal',
  'return=headers-only',
  'count=exact',
  'count=planned',
  'count=estimated',
  'tx=commit',
  'tx=rollback',
  'missing=default',
  'missing=null',
  'handling=strict',
  'handling=lenient',
]);

function parsePrefer(header: string | string[] | undefined): Prefer {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const raw = new Map<string, string>();
  const invalid: string[] = [];
  for (const part of text.split(',')) {
    const pref = part.trim();
    if (pref === '') continue;
    if (!ACCEPTED_PREFS.has(pref) && !pref.startsWith('timezone=') && !pref.startsWith('max-affected=')) invalid.push(pref);
    const eq = pref.indexOf('=');
    const [k, v] = eq < 0 ? [pref, undefined] : [pref.slice(0, eq).trim(), pref.slice(eq + 1).trim()];
    // the first occurrence of a preference wins, as in PostgREST's parsePrefs
    if (k && v !== undefined && !raw.has(k)) raw.set(k, v);
  }
  const p: Prefer = { raw, invalid, strict: raw.get('handling') === 'strict' };
  const tz = raw.get('timezone');
  if (tz) p.timezone = tz;
  const tx = raw.get('tx');
  if (tx === 'commit' || tx === 'rollback') p.tx = tx;
  const max = raw.get('max-affected');
  if (max !== undefined && /^\d+$/.test(max)) p.maxAffected = Number(max);
  const ret = raw.get('return');
  if (ret === 'representation' || ret === 'minimal' || ret === 'headers-only') p.return = ret;
  const count = raw.get('count');
  if (count === 'exact' || count === 'planned' || count === 'estimated') p.count = count;
  const res = raw.get('resolution');
  if (res === 'merge-duplicates' || res === 'ignore-duplicates') p.resolution = res;
  const missing = raw.get('missing');
  if (missing === 'default' || missing === 'null') p.missing = missing;
  return p;
}

interface Accept {
  single: boolean;
  stripNulls: boolean;
  /** text/csv: PostgREST's built-in CSV handler. */
  csv: boolean;
}

function parseAccept(header: string | undefined): Accept {
  if (!header) return { single: false, stripNulls: false, csv: false };
  const types = header.split(',').map((t) => t.trim().toLowerCase());
  for (const t of types) {
    const [base, ...params] = t.split(';').map((s) => s.trim());
    const stripNulls = params.includes('nulls=stripped');
    if (base === 'application/vnd.pgrst.object+json' || base === 'application/vnd.pgrst.object')
      return { single: true, stripNulls, csv: false };
    if (base === 'application/json' || base === 'application/vnd.pgrst.array+json' || base === '*/*' || base === 'application/*') {
      return { single: false, stripNulls, csv: false };
    }
    if (base === 'text/csv') return { single: false, stripNulls: false, csv: true };
  }
  throw apiError(406, 'PGRST107', `None of these media types are available: ${types.join(', ')}`);
}

interface Range {
  offset: number;
  /** Inclusive upper bound, or undefined for unbounded. */
  upper?: number;
  limitZero: boolean;
}

/** PostgREST's range: the Range header (GET only) intersected with limit/offset, then max_rows. */
function topRange(
  method: string,
  header: string | undefined,
  limit: number | undefined,
  offset: number | undefined,
  maxRows: number,
): Range {
  let lo = offset ?? 0;
  let hi = limit !== undefined ? lo + limit - 1 : undefined;
  if (method === 'GET' && header) {
    const m = /^(?:[a-z]+=)?(\d+)-(\d*)$/i.exec(header.trim());
    if (m) {
      const hl = Number(m[1]);
      const hu = m[2] === '' ? undefined : Number(m[2]);
      if (hu !== undefined && hl > hu && limit !== 0) {
        throw apiError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
        );
      }
      lo = Math.max(lo, hl);
      if (hu !== undefined) hi = hi === undefined ? hu : Math.min(hi, hu);
    }
  }
  if (limit === 0) return { offset: lo, upper: lo - 1, limitZero: true };
  if (hi !== undefined && hi < lo) {
    throw apiError(
      416,
      'PGRST103',
      'Requested range not satisfiable',
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  const capped = lo + maxRows - 1;
  hi = hi === undefined ? capped : Math.min(hi, capped);
  return { offset: lo, upper: hi, limitZero: false };
}

function contentRange(lower: number, upper: number, total: number | undefined): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === undefined ? '*' : total}`;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const EMBEDDABLE = ['order', 'limit', 'offset'];

interface ParsedQuery {
  select: SelectItem[];
  columns?: string[];
  onConflict?: string[];
  /** Per embed path ('' = top level). */
  limits: Map<string, number>;
  offsets: Map<string, number>;
  orders: Map<string, ReturnType<typeof parseOrder>>;
  logic: { path: string[]; tree: ReturnType<typeof parseLogic> }[];
  filters: { path: string[]; filter: ReturnType<typeof parseFilterValue> }[];
  /** GET RPC: query parameters that are not filters are the function's arguments. */
  args: Map<string, string>;
}

function parseQuery(search: URLSearchParams, rpcRead: boolean): ParsedQuery {
  const q: ParsedQuery = {
    select: parseSelect(search.get('select') ?? '*'),
    limits: new Map(),
    offsets: new Map(),
    orders: new Map(),
    logic: [],
    filters: [],
    args: new Map(),
  };
  const columns = search.get('columns');
  if (columns !== null) q.columns = parseColumns(columns, 'columns');
  const onConflict = search.get('on_conflict');
  if (onConflict !== null) q.onConflict = parseColumns(onConflict, 'on_conflict');
  for (const [key, value] of search) {
    if (RESERVED.has(key)) continue;
    const last = key.slice(key.lastIndexOf('.') + 1);
    if (EMBEDDABLE.includes(last)) {
      const { path } = splitEmbedKey(key, [last])!;
      const k = path.join('.');
      if (last === 'order') q.orders.set(k, parseOrder(value));
      else if (last === 'limit') q.limits.set(k, parseCount('limit', value));
      else q.offsets.set(k, parseCount('offset', value));
      continue;
    }
    if (last === 'and' || last === 'or') {
      const parts = key.split('.');
      parts.pop();
      const negate = parts[parts.length - 1] === 'not';
      if (negate) parts.pop();
      const { path } = parts.length ? splitEmbedKey(parts.join('.') + '.x', ['x'])! : { path: [] };
      q.logic.push({ path, tree: parseLogic(last, negate, value) });
      continue;
    }
    const { path, field } = parseFilterKey(key);
    if (rpcRead && path.length === 0 && field.path.length === 0) {
      try {
        q.filters.push({ path, filter: parseFilterValue(key, value, field) });
      } catch {
        q.args.set(key, value);
      }
      continue;
    }
    q.filters.push({ path, filter: parseFilterValue(key, value, field) });
  }
  return q;
}

/** Filters, logic trees, orders and embed limits onto the node tree. */
function applyQuery(root: Node, q: ParsedQuery) {
  for (const { path, filter } of q.filters) {
    const node = findNode(root, path);
    const embed = node.table.byName.has(filter.field.name) ? undefined : node.embeds.find((e) => e.name === filter.field.name);
    if (embed && filter.operation.op === 'is' && (filter.operation.value === 'null' || filter.operation.value === 'not_null')) {
      const isNull = (filter.operation.value === 'null') !== filter.negate;
      embed.nullFilters.push(isNull ? 'null' : 'not_null');
      continue;
    }
    node.filters.push(filter);
  }
  for (const { path, tree } of q.logic) findNode(root, path).filters.push(tree);
  for (const [k, order] of q.orders) findNode(root, k ? k.split('.') : []).order = order;
  for (const [k, limit] of q.limits) if (k) findNode(root, k.split('.')).limit = limit;
  for (const [k, offset] of q.offsets) if (k) findNode(root, k.split('.')).offset = offset;
}

function tableNotFound(cache: SchemaCache, name: string) {
  const suggestion = closest(name, [...cache.tables.keys()]);
  return apiError(
    404,
    'PGRST205',
    `Could not find the table '${cache.schema}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${cache.schema}.${suggestion}'` : null,
  );
}

function jwtError(error: JwtError, token: string) {
  const parts = token.split('.').length;
  let code = 'PGRST301';
  let message: string;
  if (error.reason === 'expired') {
    code = 'PGRST303';
    message = 'JWT expired';
  } else if (parts !== 3) message = `Expected 3 parts in JWT; got ${parts}`;
  else message = 'JWT cryptographic operation failed';
  return apiError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  });
}

interface Outcome {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One schema cache per exposed schema: config.toml [api] schemas, as PostgREST's db-schemas
 * (the first is the default; Accept-Profile/Content-Profile pick another). A configured schema
 * that does not exist in the database is not exposed (hosted Supabase creates graphql_public,
 * the stack does not).
 */
async function loadCaches(ctx: StackContext): Promise<Map<string, SchemaCache>> {
  const wanted = ctx.config.api.schemas.length ? ctx.config.api.schemas : ['public'];
  const { rows } = await ctx.db.query<{ nspname: string }>(`select nspname from pg_namespace where nspname = any($1::text[])`, [wanted]);
  const present = new Set(rows.map((r) => r.nspname));
  const caches = new Map<string, SchemaCache>();
  for (const schema of wanted) if (present.has(schema)) caches.set(schema, await loadSchema(ctx.db, schema));
  return caches;
}

export async function createRestService(ctx: StackContext): Promise<Service> {
  let caches = await loadCaches(ctx);
  let reloading: Promise<void> | undefined;
  const reload = () => {
    reloading = loadCaches(ctx)
      .then((c) => {
        caches = c;
      })
      .catch((e) => ctx.log.error(`rest: schema cache reload failed: ${(e as Error).message}`))
      .finally(() => {
        reloading = undefined;
      });
  };
  ctx.events.on('schema-changed', reload);
  const maxRows = ctx.config.api.maxRows;

  // Verified tokens, as PostgREST's JWT cache: the same key or session token is checked once
  // (signature), its expiry on every request.
  // PostgREST allows 30 s of clock skew on exp.
  const SKEW_MS = 30_000;
  const verified = new Map<string, Claims>();
  async function verify(token: string): Promise<Claims> {
    const hit = verified.get(token);
    if (hit) {
      if (typeof hit.exp === 'number' && hit.exp * 1000 + SKEW_MS <= Date.now()) {
        verified.delete(token);
      } else return hit;
    }
    let claims: Claims;
    try {
      claims = await ctx.jwt.verify(token);
    } catch (error) {
      // jose reports expiry only after the signature checked out: within the skew, accept
      if (!(error instanceof JwtError) || error.reason !== 'expired') throw error;
      const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Claims;
      if (typeof payload.exp !== 'number' || payload.exp * 1000 + SKEW_MS <= Date.now()) throw error;
      claims = payload;
    }
    if (verified.size >= 1000) verified.clear();
    verified.set(token, claims);
    return claims;
  }

  async function authenticate(req: IncomingMessage): Promise<{ role: string; claims: Claims }> {
    const token = bearer(req);
    if (!token) return { role: 'anon', claims: { role: 'anon' } };
    try {
      const claims = await verify(token);
      return { role: typeof claims.role === 'string' && claims.role ? claims.role : 'anon', claims };
    } catch (error) {
      if (error instanceof JwtError) throw jwtError(error, token);
      throw error;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    if (reloading) await reloading;
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { role, claims } = await authenticate(req);
    const authed = role !== 'anon';

    const writeMethod = method === 'POST' || method === 'PATCH' || method === 'DELETE' || method === 'PUT';
    const profile = req.headers[writeMethod ? 'content-profile' : 'accept-profile'];
    const exposed = [...caches.keys()];
    const picked = caches.get(typeof profile === 'string' ? profile : exposed[0]);
    if (!picked) {
      throw apiError(
        406,
        'PGRST106',
        `Invalid schema: ${String(profile)}`,
        null,
        `Only the following schemas are exposed: ${exposed.join(', ')}`,
      );
    }
    const cache: SchemaCache = picked;
    if (!['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT'].includes(method)) {
      throw apiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
    }
    const accept = parseAccept(req.headers.accept);
    const prefer = parsePrefer(req.headers.prefer);

    let segments: string[];
    try {
      segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw apiError(404, 'PGRST125', 'Invalid path specified in request URL');
    }
    let outcome: () => Promise<Outcome>;
    if (segments.length === 0) {
      outcome = async () => ({
        status: 200,
        headers: { 'content-type': 'application/openapi+json; charset=utf-8' },
        body: JSON.stringify(openApi(cache)),
      });
    } else if (segments.length === 2 && segments[0] === 'rpc') {
      outcome = await planRpc(segments[1]);
    } else if (segments.length === 1) {
      outcome = await planTable(segments[0]);
    } else {
      throw apiError(404, 'PGRST125', 'Invalid path specified in request URL');
    }

    async function planTable(name: string): Promise<() => Promise<Outcome>> {
      const table = cache.tables.get(name);
      if (!table) throw tableNotFound(cache, name);
      const q = parseQuery(url.searchParams, false);
      checkPreferences();
      const p = new Params();
      const root = buildNode(
        cache,
        table,
        `${quoteIdent(cache.schema)}.${quoteIdent(table.name)}`,
        table.name,
        table.name,
        q.select,
        new Aliases(),
      );
      applyQuery(root, q);
      if (method === 'GET' || method === 'HEAD') {
        const range = topRange(method, req.headers.range, q.limits.get(''), q.offsets.get(''), maxRows);
        root.limit = range.limitZero ? 0 : range.upper === undefined ? undefined : range.upper - range.offset + 1;
        root.offset = range.offset;
        const opts = { count: !!prefer.count, single: accept.single, csv: accept.csv };
        // The values as literals, so the read travels with its transaction in one simple query
        // (readAsRequest); not for tx=rollback (a transaction of its own), nor a value with a NUL.
        const inline = new Params(prefer.tx !== 'rollback' && requestSetup.batched);
        const sql = readSql(root, inline, opts);
        if (inline.inline && inline.inlinable) return () => runRead(sql, inline, range, { isHead: method === 'HEAD' });
        return () => runRead(readSql(root, p, opts), p, range, { isHead: method === 'HEAD' });
      }
      if (method === 'DELETE') return planDelete(table, root, p);
      const body = await readPayload(req);
      if (method === 'POST') return planInsert(table, root, q, p, body);
      if (method === 'PUT') return planPut(table, root, q, p, body);
      return planUpdate(table, root, q, p, body);
    }

    function finishRead(
      row: { body: string; n: number; total?: string },
      range: Range,
      extra: { isHead: boolean; contentType?: string; rpc?: boolean },
    ): Outcome {
      const total = row.total === undefined ? undefined : Number(row.total);
      const lower = range.offset;
      const upper = lower + row.n - 1;
      const headers: Record<string, string> = { 'content-range': contentRange(lower, upper, total) };
      let status = 200;
      if (total !== undefined) {
        if (lower > total && !range.limitZero) {
          throw apiError(
            416,
            'PGRST103',
            'Requested range not satisfiable',
            `An offset of ${lower} was requested, but there are only ${total} rows.`,
            null,
            headers,
          );
        }
        if (1 + upper - lower < total) status = 206;
      }
      if (accept.single && row.n !== 1) {
        throw apiError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${row.n} rows`);
      }
      // RPC: max-affected counts the rows the function returns (PostgREST >= 13.0.3, #4100);
      // thrown inside the transaction, so the function's writes are rolled back
      if (extra.rpc) failExceedsMaxAffected(row.n);
      Object.assign(headers, preferenceApplied(extra.rpc ? 'rpc' : 'read', false));
      headers['content-type'] = accept.csv ? CSV_TYPE : (extra.contentType ?? (accept.single ? OBJECT_TYPE : JSON_TYPE));
      headers['content-profile'] = cache.schema;
      return { status, headers, body: extra.isHead ? undefined : stripNulls(row.body) };
    }

    async function runRead(sql: string, p: Params, range: Range, extra: { isHead: boolean }): Promise<Outcome> {
      const finish = (rows: { body: string; n: number; total?: string }[]) => finishRead(rows[0], range, extra);
      return run(
        async (tx) => finish((await tx.query<{ body: string; n: number; total?: string }>(sql, p.inline ? [] : p.values)).rows),
        undefined,
        p.inline ? { sql, finish } : undefined,
      );
    }

    function stripNulls(body: string): string {
      if (!accept.stripNulls || accept.csv) return body;
      return JSON.stringify(JSON.parse(body), (_k, v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null)) : v,
      );
    }

    /** handling=strict refuses preferences PostgREST does not know (PGRST122). */
    function checkPreferences() {
      if (prefer.strict && prefer.invalid.length) {
        throw apiError(
          400,
          'PGRST122',
          'Invalid preferences given with handling=strict',
          `Invalid preferences: ${prefer.invalid.join(', ')}`,
        );
      }
    }

    function checkColumns(table: Table, cols: string[]) {
      for (const c of cols) {
        if (!table.byName.has(c))
          throw apiError(400, 'PGRST204', `Could not find the '${c}' column of '${table.name}' in the schema cache`);
      }
    }

    /** Preference-Applied in PostgREST's order (prefAppliedHeader, responsePreferences). */
    function preferenceApplied(
      kind: 'create' | 'update' | 'delete' | 'put' | 'read' | 'rpc',
      hasConflictTarget: boolean,
    ): Record<string, string> {
      const parts: string[] = [];
      const write = kind === 'create' || kind === 'update' || kind === 'delete' || kind === 'put';
      if (kind === 'create' && prefer.resolution && hasConflictTarget) parts.push(`resolution=${prefer.resolution}`);
      if ((kind === 'create' || kind === 'update') && prefer.missing) parts.push(`missing=${prefer.missing}`);
      if (write && prefer.return) parts.push(`return=${prefer.return}`);
      if (prefer.count) parts.push(`count=${prefer.count}`);
      if (prefer.tx) parts.push(`tx=${prefer.tx}`);
      if (prefer.raw.get('handling') === 'strict' || prefer.raw.get('handling') === 'lenient')
        parts.push(`handling=${prefer.raw.get('handling')}`);
      if (prefer.timezone) parts.push(`timezone=${prefer.timezone}`);
      if (prefer.strict && prefer.maxAffected !== undefined && (kind === 'update' || kind === 'delete' || kind === 'rpc'))
        parts.push(`max-affected=${prefer.maxAffected}`);
      return parts.length ? { 'preference-applied': parts.join(', ') } : {};
    }

    function failExceedsMaxAffected(n: number) {
      if (prefer.strict && prefer.maxAffected !== undefined && n > prefer.maxAffected) {
        throw apiError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${n} rows`);
      }
    }

    const writeType = () => (accept.csv ? CSV_TYPE : accept.single ? OBJECT_TYPE : JSON_TYPE);

    /** Runs a mutation CTE and shapes the response from its rows. */
    async function mutate(
      kind: 'create' | 'update' | 'delete' | 'put',
      table: Table,
      root: Node,
      p: Params,
      /** Builds write statement i with its parameters in `p` (count: how many). */
      write: { count: number; build: (p: Params, i: number) => string },
      opts: { conflictTarget: boolean; upsertMerge: boolean },
    ): Promise<Outcome> {
      const representation = prefer.return === 'representation';
      // The write's filters chose the rows; the returned rows are not filtered again.
      root.filters = [];
      const headersOnly = prefer.return === 'headers-only' && kind === 'create';
      return run(async (tx) => {
        let n = 0;
        let body = '';
        let inserted = -1;
        let location: string | undefined;
        const statements = Array.from({ length: write.count }, (_, i) => i);
        if (statements.length === 0) {
          body = accept.csv ? '\n' : accept.single ? 'null' : '[]';
        } else if (representation || headersOnly || opts.upsertMerge) {
          const ctes = statements.map(
            (i) =>
              `pgrst_m${i} as (${write.build(p, i)} returning ${quoteIdent(table.name)}.*${opts.upsertMerge ? `, (${quoteIdent(table.name)}.xmax = 0) as pgrst_inserted` : ''})`,
          );
          const sourceAs = (alias: string) => `(${statements.map((i) => `select * from pgrst_m${i}`).join(' union all ')}) as ${alias}`;
          const source = sourceAs(quoteIdent(table.name));
          const read = representation
            ? readSql(root, p, { count: false, single: accept.single, csv: accept.csv, source })
            : `select null::text as body, count(*)::int as n from ${source}`;
          const extras: string[] = [];
          if (opts.upsertMerge) extras.push(`(select count(*) from ${sourceAs('_i')} where pgrst_inserted)::int as inserted`);
          if (headersOnly && table.pk.length) {
            extras.push(
              `(select json_build_object(${table.pk.map((c) => `${p.add(c)}, _l.${quoteIdent(c)}::text`).join(', ')})::text from ${sourceAs('_l')} limit 1) as location`,
            );
          }
          const sql = `with ${ctes.join(', ')} select r.*${extras.length ? ', ' + extras.join(', ') : ''} from (${read}) as r`;
          const { rows } = await tx.query<{ body: string; n: number; inserted?: number; location?: string }>(sql, p.values);
          n = rows[0].n;
          body = rows[0].body;
          if (rows[0].inserted !== undefined) inserted = rows[0].inserted;
          if (rows[0].location) {
            const loc = JSON.parse(rows[0].location) as Record<string, string>;
            location = `/${table.name}?${Object.entries(loc)
              .map(([k, v]) => `${encodeURIComponent(k)}=eq.${encodeURIComponent(v)}`)
              .join('&')}`;
          }
        } else {
          // one statement per group, each with its own parameters
          for (const i of statements) {
            const own = new Params();
            const sql = write.build(own, i);
            n += (await tx.query(sql, own.values)).rowCount;
          }
        }
        if (accept.single && n !== 1) {
          throw apiError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`);
        }
        // PUT: exactly one row, whose primary key is the URL's (MainTx.hs failPut)
        if (kind === 'put') {
          if (n !== 1) throw apiError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)');
          const headers = preferenceApplied('put', false);
          if (representation)
            return {
              status: inserted > 0 ? 201 : 200,
              headers: { ...headers, 'content-type': writeType(), 'content-profile': cache.schema },
              body: stripNulls(body),
            };
          return { status: 204, headers };
        }
        if (kind !== 'create') failExceedsMaxAffected(n);
        const total = prefer.count ? n : undefined;
        const headers: Record<string, string> = {
          'content-range': kind === 'update' ? contentRange(0, n - 1, total) : contentRange(1, 0, total),
          ...preferenceApplied(kind, opts.conflictTarget),
        };
        if (location) headers.location = location;
        if (kind === 'create') {
          const status = opts.upsertMerge && inserted === 0 ? 200 : 201;
          if (representation)
            return {
              status,
              headers: { ...headers, 'content-type': writeType(), 'content-profile': cache.schema },
              body: stripNulls(body),
            };
          return { status, headers };
        }
        if (representation)
          return {
            status: 200,
            headers: { ...headers, 'content-type': writeType(), 'content-profile': cache.schema },
            body: stripNulls(body),
          };
        return { status: 204, headers };
      });
    }

    function planInsert(table: Table, root: Node, q: ParsedQuery, p: Params, body: unknown): () => Promise<Outcome> {
      const rows = Array.isArray(body) ? body : [body];
      if (rows.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
        throw apiError(400, 'PGRST102', 'All object keys must match');
      }
      const objects = rows as Record<string, unknown>[];
      let columns = q.columns;
      if (!columns) {
        const first = Object.keys(objects[0] ?? {});
        const same = objects.every((o) => {
          const keys = Object.keys(o);
          return keys.length === first.length && keys.every((k) => first.includes(k));
        });
        if (!same) throw apiError(400, 'PGRST102', 'All object keys must match');
        columns = first;
      }
      checkColumns(table, columns);
      const allColumns = columns;
      const conflict = q.onConflict ?? (prefer.resolution ? table.pk : undefined);
      if (conflict) checkColumns(table, conflict);
      const upsert = prefer.resolution && conflict && conflict.length > 0 ? prefer.resolution : undefined;
      // missing=default: rows are inserted in groups by the keys they carry, so absent keys
      // take the column default; otherwise absent keys are null (json_populate_recordset).
      const groups: { cols: string[]; rows: Record<string, unknown>[] }[] = [];
      for (const o of objects) {
        const cols = prefer.missing === 'default' ? columns.filter((c) => Object.hasOwn(o, c)) : columns;
        const last = groups[groups.length - 1];
        if (last && last.cols.length === cols.length && last.cols.every((c, i) => c === cols[i])) last.rows.push(o);
        else groups.push({ cols, rows: [o] });
      }
      const target = `${quoteIdent(cache.schema)}.${quoteIdent(table.name)}`;
      const build = (p: Params, i: number) => {
        const g = groups[i];
        const payload = p.add(JSON.stringify(g.rows), 'json');
        const cols = g.cols.map(quoteIdent).join(', ');
        let sql = g.cols.length
          ? `insert into ${target} as ${quoteIdent(table.name)} (${cols}) select ${cols} from json_populate_recordset(null::${target}, ${payload})`
          : `insert into ${target} as ${quoteIdent(table.name)} select from json_array_elements(${payload})`;
        if (upsert) {
          const target2 = conflict!.map(quoteIdent).join(', ');
          // every column of the request, as PostgREST's `DO UPDATE SET col = EXCLUDED.col` over
          // all payload columns: a key a row leaves out (missing=default) takes the column's
          // default in EXCLUDED, so the existing row gets the default, not its old value
          const sets = allColumns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
          sql +=
            upsert === 'ignore-duplicates' || sets.length === 0
              ? ` on conflict (${target2}) do nothing`
              : ` on conflict (${target2}) do update set ${sets.join(', ')}`;
        }
        return sql;
      };
      return () =>
        mutate(
          'create',
          table,
          root,
          p,
          { count: groups.length, build },
          { conflictTarget: !!conflict && conflict.length > 0, upsertMerge: upsert === 'merge-duplicates' && table.kind === 'r' },
        );
    }

    /**
     * PUT: the upsert of one row named by its whole primary key (PostgREST's
     * MutationSingleUpsert): only `pk=eq.value` filters (PGRST105), no limit/offset (PGRST114),
     * the body's key equal to the URL's (PGRST115); 201 when inserted, 200 when replaced (with
     * return=representation), else 204.
     */
    function planPut(table: Table, root: Node, q: ParsedQuery, p: Params, body: unknown): () => Promise<Outcome> {
      if (q.limits.has('') || q.offsets.has(''))
        throw apiError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT');
      const rootFilters = q.filters.filter((f) => f.path.length === 0).map((f) => f.filter);
      const onlyPkEq =
        table.pk.length > 0 &&
        q.logic.length === 0 &&
        rootFilters.length === table.pk.length &&
        table.pk.every((c) => rootFilters.some((f) => f.field.name === c)) &&
        rootFilters.every(
          (f) => !f.negate && f.field.path.length === 0 && f.operation.op === 'eq' && !('quant' in f.operation && f.operation.quant),
        );
      if (!onlyPkEq) throw apiError(405, 'PGRST105', "Filters must include all and only primary key columns with 'eq' operators");
      const rows = Array.isArray(body) ? body : [body];
      if (rows.some((r) => r === null || typeof r !== 'object' || Array.isArray(r)))
        throw apiError(400, 'PGRST102', 'All object keys must match');
      const first = Object.keys(rows[0] ?? {});
      const columns = q.columns ?? first;
      checkColumns(table, columns);
      const target = `${quoteIdent(cache.schema)}.${quoteIdent(table.name)}`;
      const build = (b: Params) => {
        const cols = columns.map(quoteIdent).join(', ');
        const payload = b.add(JSON.stringify(rows), 'json');
        const matches = rootFilters.map((f) => {
          const col = table.byName.get(f.field.name)!;
          const type = col.baseType === 'character' ? 'bpchar' : (col.baseType ?? col.type);
          return `_pgrst_b.${quoteIdent(col.name)} = ${b.add('value' in f.operation ? f.operation.value : null, type)}`;
        });
        const sets = columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
        return (
          `insert into ${target} as ${quoteIdent(table.name)} (${cols}) select ${cols} from json_populate_recordset(null::${target}, ${payload}) as _pgrst_b where ${matches.join(' and ')}` +
          ` on conflict (${table.pk.map(quoteIdent).join(', ')}) ${sets.length ? `do update set ${sets.join(', ')}` : 'do nothing'}`
        );
      };
      return () => mutate('put', table, root, p, { count: 1, build }, { conflictTarget: true, upsertMerge: true });
    }

    function planUpdate(table: Table, root: Node, q: ParsedQuery, p: Params, body: unknown): () => Promise<Outcome> {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw apiError(400, 'PGRST102', 'Empty or invalid json');
      // ?columns= names the columns to set, as on POST; one the body leaves out is set to null,
      // or to its default with missing=default (PostgREST's Update over iColumns)
      const cols = q.columns ?? Object.keys(body);
      checkColumns(table, cols);
      const none = { count: 0, build: () => '' };
      if (cols.length === 0) return () => mutate('update', table, root, p, none, { conflictTarget: false, upsertMerge: false });
      const target = `${quoteIdent(cache.schema)}.${quoteIdent(table.name)}`;
      const where = whereOf(root);
      const sets = cols
        .map(
          (c) =>
            `${quoteIdent(c)} = ${prefer.missing === 'default' && !Object.hasOwn(body, c) ? 'default' : `_pgrst_body.${quoteIdent(c)}`}`,
        )
        .join(', ');
      const build = (q: Params) =>
        `update ${target} as ${quoteIdent(table.name)} set ${sets} from (select * from json_populate_record(null::${target}, ${q.add(JSON.stringify(body), 'json')})) as _pgrst_body${where(q)}`;
      return () => mutate('update', table, root, p, { count: 1, build }, { conflictTarget: false, upsertMerge: false });
    }

    function planDelete(table: Table, root: Node, p: Params): () => Promise<Outcome> {
      const target = `${quoteIdent(cache.schema)}.${quoteIdent(table.name)}`;
      const where = whereOf(root);
      const build = (q: Params) => `delete from ${target} as ${quoteIdent(table.name)}${where(q)}`;
      return () => mutate('delete', table, root, p, { count: 1, build }, { conflictTarget: false, upsertMerge: false });
    }

    /** The WHERE of a write: only the top level's own filters (embeds shape the returned rows). */
    function whereOf(root: Node): (p: Params) => string {
      const own: Node = { ...root, filters: [...root.filters], embeds: [] };
      return (p) => {
        const conds = whereSqlOf(own, p);
        return conds.length ? ` where ${conds.join(' and ')}` : '';
      };
    }

    async function planRpc(name: string): Promise<() => Promise<Outcome>> {
      const rpcRead = method === 'GET' || method === 'HEAD';
      if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
        throw apiError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
      }
      const q = parseQuery(url.searchParams, rpcRead);
      let args: Record<string, unknown>;
      let rawBody: unknown;
      if (rpcRead) args = Object.fromEntries(q.args);
      else {
        rawBody = await readPayload(req, true);
        args = rawBody && typeof rawBody === 'object' && !Array.isArray(rawBody) ? (rawBody as Record<string, unknown>) : {};
      }
      const keys = Object.keys(args);
      const candidates = cache.functions.get(name) ?? [];
      const matches = candidates.filter(
        (f) =>
          keys.every((k) => f.args.some((a) => a.name === k)) &&
          f.args.every((a) => a.hasDefault || keys.includes(a.name)) &&
          f.args.every((a) => a.name !== ''),
      );
      let fn: PgFunction | undefined;
      let singleJson = false;
      if (matches.length === 1) fn = matches[0];
      else if (matches.length > 1) {
        throw new HttpError(
          300,
          pgrstBody(
            'PGRST203',
            `Could not choose the best candidate function between: ${matches.map((f) => `${cache.schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
            null,
            'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
          ),
        );
      } else if (!rpcRead) {
        fn = candidates.find(
          (f) => f.args.length === 1 && f.args[0].name === '' && (f.args[0].type === 'json' || f.args[0].type === 'jsonb'),
        );
        singleJson = !!fn;
      }
      if (!fn) throw noRpc(name, keys, !rpcRead, candidates);
      if (fn.variadic) throw notImplemented(`calling the VARIADIC function ${cache.schema}.${fn.name}`);
      checkPreferences();
      if (prefer.strict && prefer.maxAffected !== undefined && !fn.returnsSet) {
        throw apiError(400, 'PGRST128', 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict');
      }
      // PostgREST's txMode: GET, and POST to a stable or immutable function, run read-only
      const readOnly = rpcRead || !fn.volatile;
      const p = new Params();
      const callArgs = singleJson
        ? p.add(JSON.stringify(rawBody ?? {}), fn.args[0].type)
        : (() => {
            const json = keys.length ? p.add(JSON.stringify(args), 'json') : '';
            return keys
              .map((k) => {
                const a = fn!.args.find((x) => x.name === k)!;
                return `${quoteIdent(k)} := (select _a.${quoteIdent(k)} from json_to_record(${json}) as _a(${quoteIdent(k)} ${a.type}))`;
              })
              .join(', ');
          })();
      const call = `${quoteIdent(cache.schema)}.${quoteIdent(fn.name)}(${callArgs})`;
      const range = topRange(method, req.headers.range, q.limits.get(''), q.offsets.get(''), maxRows);
      const limit = range.limitZero ? 0 : range.upper === undefined ? undefined : range.upper - range.offset + 1;
      const isHead = method === 'HEAD';
      const f = fn;

      if (f.returnKind === 'void') {
        return () =>
          run(async (tx) => {
            await tx.query(`select ${call}`, p.values);
            return { status: 204, headers: { 'content-range': contentRange(0, 0, undefined), ...preferenceApplied('rpc', false) } };
          }, readOnly);
      }
      if (f.returnKind === 'scalar') {
        if (accept.csv)
          throw notImplemented(
            'text/csv responses of functions that return scalars (only rows of tables, views and functions returning rows are answered as CSV)',
          );
        let sql: string;
        if (f.returnsSet) {
          const lim = `${limit !== undefined ? ` limit ${p.add(String(limit), 'bigint')}` : ''}${range.offset ? ` offset ${p.add(String(range.offset), 'bigint')}` : ''}`;
          const total = prefer.count ? `, (select count(*) from ${call} as _c)::text as total` : '';
          sql = `select ${accept.single ? `coalesce((json_agg(_pgrst_t.pgrst_scalar)->0)::text, 'null')` : `coalesce(json_agg(_pgrst_t.pgrst_scalar), '[]')::text`} as body, count(_pgrst_t)::int as n${total} from (select pgrst_scalar from ${call} as _pgrst_f(pgrst_scalar)${lim}) as _pgrst_t`;
        } else {
          sql = `select coalesce((json_agg(_pgrst_t.pgrst_scalar)->0)::text, 'null') as body, count(_pgrst_t)::int as n${prefer.count ? `, '1' as total` : ''} from (select ${call} as pgrst_scalar) as _pgrst_t`;
        }
        return () =>
          run(async (tx) => {
            const { rows } = await tx.query<{ body: string; n: number; total?: string }>(sql, p.values);
            return finishRead(rows[0], range, { isHead, rpc: true });
          }, readOnly);
      }
      // composite: rows of a table type or RETURNS TABLE / OUT columns
      const table: Table =
        f.retTable && cache.tables.get(f.retTable)
          ? cache.tables.get(f.retTable)!
          : { name: f.name, kind: 'f', columns: f.outColumns, byName: new Map(f.outColumns.map((c) => [c.name, c])), pk: [] };
      const root = buildNode(cache, table, call, f.name, f.name, q.select, new Aliases());
      applyQuery(root, q);
      root.limit = limit;
      root.offset = range.offset;
      const single = accept.single || !f.returnsSet;
      const sql = readSql(root, p, { count: !!prefer.count, single, csv: accept.csv });
      return () =>
        run(async (tx) => {
          const { rows } = await tx.query<{ body: string; n: number; total?: string }>(sql, p.values);
          const row = rows[0];
          if (!f.returnsSet && !accept.single) {
            return finishRead(row, range, { isHead, contentType: JSON_TYPE, rpc: true });
          }
          return finishRead(row, range, { isHead, rpc: true });
        }, readOnly);
    }

    function noRpc(name: string, keys: string[], isPost: boolean, overloads: PgFunction[]) {
      const func = `${cache.schema}.${name}`;
      const prms = keys.join(', ');
      const msg = `Could not find the function ${func}${keys.length ? `(${prms})` : ' without parameters'} in the schema cache`;
      const withParams = keys.length ? ` with parameter${keys.length > 1 ? 's' : ''} ${prms}` : ' without parameters';
      const details = `Searched for the function ${func}${withParams}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`;
      let hint: string | null = null;
      if (overloads.length) {
        const sig = (names: string[]) => `(${[...names].sort().join(', ')})`;
        const best = closest(
          sig(keys),
          overloads.map((o) => sig(o.args.map((a) => a.name))),
        );
        if (best) hint = `Perhaps you meant to call the function ${func}${best}`;
      } else {
        const best = closest(name, [...cache.functions.keys()]);
        if (best) hint = `Perhaps you meant to call the function ${cache.schema}.${best}`;
      }
      return apiError(404, 'PGRST202', msg, details, hint);
    }

    /** readOnly: GET/HEAD, and (PostgREST's txMode) POST to a stable or immutable function. */
    /**
     * oneTrip: a read whose statement has no parameters, sent with its transaction as one
     * simple query (readAsRequest); `fn` is the way when it cannot go so.
     */
    async function run(
      fn: (tx: Queryable) => Promise<Outcome>,
      readOnly = method === 'GET' || method === 'HEAD',
      oneTrip?: { sql: string; finish: (rows: { body: string; n: number; total?: string }[]) => Outcome },
    ): Promise<Outcome> {
      const headers = forwardedHeaders(req, ctx.config.api.trustedProxies);
      try {
        const context = {
          role,
          claims,
          method,
          path: url.pathname.replace(/^\/rest\/v1/, '') || '/',
          headers,
          statementTimeout: cache.roleTimeouts.get(role),
          // PostgREST's search_path per request: the request's schema, then db-extra-search-path
          searchPath: [cache.schema, ...ctx.config.api.extraSearchPath.filter((x) => x !== cache.schema)],
          readOnly,
          timezone: prefer.timezone,
        };
        const timeoutMs = deadlineMs(cache.roleTimeouts.get(role));
        if (oneTrip) {
          const result = await readAsRequest<{ body: string; n: number; total?: string }>(ctx.db, context, oneTrip.sql, { timeoutMs });
          if (result) return oneTrip.finish(result.rows);
        }
        return await withRequest(
          ctx.db,
          context,
          async (tx) => {
            const result = await fn(tx);
            if (prefer.tx === 'rollback') throw new Rollback(result);
            return result;
          },
          { timeoutMs },
        );
      } catch (error) {
        if (error instanceof Rollback) return error.outcome;
        if (error instanceof HttpError) throw error;
        if (error instanceof UnknownRoleError) {
          throw new HttpError(401, pgrstBody('22023', error.message), { 'www-authenticate': 'Bearer' });
        }
        if (isPgError(error)) throw fromPgError(error, authed);
        throw error;
      }
    }

    const result = await outcome();
    const headers = { ...result.headers };
    if (result.body !== undefined && method !== 'HEAD') headers['content-length'] = String(Buffer.byteLength(result.body));
    res.writeHead(result.status, headers);
    res.end(method === 'HEAD' ? undefined : result.body);
  }

  return {
    handle,
    async close() {
      ctx.events.off('schema-changed', reload);
      if (reloading) await reloading;
    },
  };
}

import { whereSql as whereSqlOf } from './query.ts';

/**
 * What the server needs beyond a statement_timeout to cancel the statement and say so, and
 * what a loaded machine adds: the client-side deadline is the role's timeout plus this, so a
 * reachable server always reports its own 57014 first.
 */
export const DEADLINE_GRACE_MS = 5_000;

/**
 * The client-side deadline of each round trip of a request as `role`: its statement_timeout
 * (pg_db_role_setting: anon 3 s, authenticated 8 s, as on hosted Supabase) plus the grace.
 * A role without one (service_role) gets the database's default (db/postgres.ts, 60 s).
 */
export function deadlineMs(statementTimeout: string | undefined): number | undefined {
  const ms = intervalMs(statementTimeout);
  return ms ? ms + DEADLINE_GRACE_MS : undefined;
}

/** A duration setting as Postgres reads it ('3s', '8000', '1min'; no unit = ms). */
export function intervalMs(setting: string | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|min|h|d)?\s*$/.exec(setting ?? '');
  if (!m) return undefined;
  const factor = { us: 0.001, ms: 1, s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms']!;
  return Math.round(Number(m[1]) * factor);
}

/** Prefer: tx=rollback: the outcome is answered, the transaction rolled back. */
class Rollback extends Error {
  constructor(readonly outcome: Outcome) {
    super('rollback');
  }
}

/**
 * The request body by its Content-Type, as PostgREST's getPayload: JSON (also without a
 * Content-Type), CSV (header row, every value a string, NULL for null), and form-urlencoded
 * (every value a string). A raw body for a function's single unnamed parameter (text/plain,
 * text/xml, application/octet-stream) is not implemented; any other type is not acceptable.
 */
async function readPayload(req: IncomingMessage, allowEmpty = false): Promise<unknown> {
  const raw = await readBody(req);
  const text = raw.toString('utf8');
  const mime = (req.headers['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
  if (mime === 'text/csv') return csvPayload(text);
  if (mime === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  if (allowEmpty && (mime === 'text/plain' || mime === 'text/xml' || mime === 'application/octet-stream')) {
    throw notImplemented(`a raw ${mime} body for a function with a single unnamed parameter`);
  }
  if (mime !== 'application/json' && mime !== '*/*' && mime !== '') {
    throw apiError(400, 'PGRST102', `Content-Type not acceptable: ${mime}`);
  }
  if (text.trim() === '') {
    if (allowEmpty) return {};
    throw apiError(400, 'PGRST102', 'Empty or invalid json');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, 'PGRST102', 'Empty or invalid json');
  }
}

/** RFC 4180 CSV into objects by the header row (PostgREST's csvToJson: "NULL" is null). */
function csvPayload(text: string): Record<string, string | null>[] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = '';
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endField();
      records.push(record);
      record = [];
    } else field += ch;
    i++;
  }
  if (quoted) throw apiError(400, 'PGRST102', 'parse error (unexpected end of input in a quoted field)');
  if (field !== '' || record.length) {
    endField();
    records.push(record);
  }
  const [header, ...rows] = records.filter((r) => !(r.length === 1 && r[0] === ''));
  if (!header) return [];
  if (rows.some((r) => r.length !== header.length)) throw apiError(400, 'PGRST102', 'All lines must have same number of fields');
  return rows.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k] === 'NULL' ? null : r[k]])));
}

/** A small OpenAPI description of the exposed schema (PostgREST serves a full one at /). */
function openApi(cache: SchemaCache) {
  const definitions: Record<string, unknown> = {};
  const paths: Record<string, unknown> = { '/': {} };
  for (const t of cache.tables.values()) {
    paths[`/${t.name}`] = {};
    definitions[t.name] = {
      type: 'object',
      required: t.columns.filter((c) => c.notNull && !c.hasDefault).map((c) => c.name),
      properties: Object.fromEntries(t.columns.map((c) => [c.name, { format: c.type }])),
    };
  }
  for (const name of cache.functions.keys()) paths[`/rpc/${name}`] = {};
  return { swagger: '2.0', info: { title: 'standard public schema', version: 'local' }, basePath: '/', paths, definitions };
}
