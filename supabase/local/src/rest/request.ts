/**
 * Request parsing: what a request asks for, read from its headers and query string before any
 * planning. The schema it addresses (Accept-Profile / Content-Profile, PGRST106), the method
 * (PGRST117), Accept (JSON array, single object, CSV, nulls=stripped; PGRST107), Prefer
 * (PGRST122 under handling=strict), Range with limit/offset and max_rows (PGRST103), and the
 * query string's select, filters, logic trees, orders, limits and offsets per embed path. As
 * PostgREST's ApiRequest (Preferences.hs, QueryParams.hs); the URL grammar itself is parse.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { StackContext } from '../context.ts';
import type { Claims } from '../jwt.ts';
import { apiError } from './errors.ts';
import type { SchemaCache } from './schema.ts';
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

/** One request as the modules after parsing see it: who asks, in which schema, for what. */
export interface RestRequest {
  ctx: StackContext;
  req: IncomingMessage;
  method: string;
  url: URL;
  role: string;
  claims: Claims;
  /** Not anon: a failing permission check answers 403, not 401 (errors.ts). */
  authed: boolean;
  /** The schema cache of the addressed schema. */
  cache: SchemaCache;
  accept: Accept;
  prefer: Prefer;
  /** config.toml [api] max_rows. */
  maxRows: number;
}

/**
 * The request as the later modules see it: the caller (authenticate: the JWT, auth.ts), the
 * addressed schema's cache, the method and the Accept and Prefer headers, in PostgREST's order
 * of refusal (JWT, PGRST106, PGRST117, PGRST107).
 */
export async function readRequest(
  ctx: StackContext,
  req: IncomingMessage,
  /** The schema caches as they are once the caller is known (a reload may land meanwhile). */
  schemaCaches: () => Map<string, SchemaCache>,
  authenticate: (req: IncomingMessage) => Promise<{ role: string; claims: Claims }>,
): Promise<RestRequest> {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://localhost');
  const { role, claims } = await authenticate(req);
  const caches = schemaCaches();
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
  const prefer = parsePrefer(req.headers.prefer, cache.txEnd.allowOverride);
  return {
    ctx,
    req,
    method,
    url,
    role,
    claims,
    authed: role !== 'anon',
    cache,
    accept,
    prefer,
    maxRows: ctx.config.api.maxRows,
  };
}

/** The path below /rest/v1 in decoded segments (PGRST125 when it does not decode). */
export function pathSegments(path: string): string[] {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw apiError(404, 'PGRST125', 'Invalid path specified in request URL');
  }
}

export interface Prefer {
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

/**
 * The Prefer header as PostgREST's Preferences.fromHeaders reads it. `tx=` counts only where
 * db-tx-end allows an override (`allowTx`); elsewhere it is neither applied nor reported, nor
 * refused by handling=strict (it is a known preference).
 */
export function parsePrefer(header: string | string[] | undefined, allowTx = false): Prefer {
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
  if (allowTx && (tx === 'commit' || tx === 'rollback')) p.tx = tx;
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

/** count=exact and count=estimated count rows in the statement; planned does not (PostgREST's shouldCount). */
export function shouldCount(prefer: Prefer): boolean {
  return prefer.count === 'exact' || prefer.count === 'estimated';
}

/** handling=strict refuses preferences PostgREST does not know (PGRST122). */
export function checkPreferences(prefer: Prefer) {
  if (prefer.strict && prefer.invalid.length) {
    throw apiError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${prefer.invalid.join(', ')}`);
  }
}

export interface Accept {
  single: boolean;
  stripNulls: boolean;
  /** text/csv: PostgREST's built-in CSV handler. */
  csv: boolean;
}

export function parseAccept(header: string | undefined): Accept {
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

export interface Range {
  offset: number;
  /** Inclusive upper bound, or undefined for unbounded. */
  upper?: number;
  limitZero: boolean;
}

/** PostgREST's range: the Range header (GET only) intersected with limit/offset, then max_rows. */
export function topRange(
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

/** The LIMIT of a range: 0 for limit=0, none when unbounded. */
export function rangeLimit(range: Range): number | undefined {
  return range.limitZero ? 0 : range.upper === undefined ? undefined : range.upper - range.offset + 1;
}

const RESERVED = new Set(['select', 'columns', 'on_conflict']);
const EMBEDDABLE = ['order', 'limit', 'offset'];

export interface ParsedQuery {
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

export function parseQuery(search: URLSearchParams, rpcRead: boolean): ParsedQuery {
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
