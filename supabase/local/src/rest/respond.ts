/**
 * Response shaping: the status, headers and body PostgREST answers with, once the database
 * has built the body. Content-Type by Accept (JSON array, single object, CSV), Content-Range
 * (with 206 for a partial page and PGRST103 past the end), Preference-Applied in PostgREST's
 * order, nulls=stripped, the single-object check (PGRST116), max-affected (PGRST124), and the
 * statuses of writes (201 created, 200 with a representation, 204 without; Location for
 * return=headers-only). As PostgREST's Response.hs.
 */
import { apiError } from './errors.ts';
import { shouldCount, type Accept, type Prefer, type Range, type RestRequest } from './request.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const CSV_TYPE = 'text/csv; charset=utf-8';
export const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';

/** What a request answers: written by the router (index.ts) once the transaction is over. */
export interface Outcome {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** The one row a read statement (query.ts readSql) returns. */
export interface ReadRow {
  body: string;
  n: number;
  total?: string;
}

export type WriteKind = 'create' | 'update' | 'delete' | 'put';

export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total === undefined ? '*' : total}`;
}

/** Preference-Applied in PostgREST's order (prefAppliedHeader, responsePreferences). */
export function preferenceApplied(prefer: Prefer, kind: WriteKind | 'read' | 'rpc', hasConflictTarget: boolean): Record<string, string> {
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

/** PGRST124: more rows affected than Prefer: max-affected allows (with handling=strict). */
export function failExceedsMaxAffected(prefer: Prefer, n: number) {
  if (prefer.strict && prefer.maxAffected !== undefined && n > prefer.maxAffected) {
    throw apiError(400, 'PGRST124', 'Query result exceeds max-affected preference constraint', `The query affects ${n} rows`);
  }
}

/** PGRST116: a single object was asked for (Accept: vnd.pgrst.object) and `n` rows came. */
export function failNotSingle(accept: Accept, n: number) {
  if (accept.single && n !== 1) {
    throw apiError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${n} rows`);
  }
}

/** Accept: ...; nulls=stripped: the keys whose value is null left out of every object. */
export function stripNulls(accept: Accept, body: string): string {
  if (!accept.stripNulls || accept.csv) return body;
  return JSON.stringify(JSON.parse(body), (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null)) : v,
  );
}

/** The answer to a read (a table, a view or a function's result) from its row. */
export function finishRead(
  r: RestRequest,
  row: ReadRow,
  range: Range,
  extra: { isHead: boolean; contentType?: string; rpc?: boolean },
): Outcome {
  const { accept, prefer } = r;
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
  failNotSingle(accept, row.n);
  // RPC: max-affected counts the rows the function returns (PostgREST >= 13.0.3, #4100);
  // thrown inside the transaction, so the function's writes are rolled back
  if (extra.rpc) failExceedsMaxAffected(prefer, row.n);
  Object.assign(headers, preferenceApplied(prefer, extra.rpc ? 'rpc' : 'read', false));
  headers['content-type'] = accept.csv ? CSV_TYPE : (extra.contentType ?? (accept.single ? OBJECT_TYPE : JSON_TYPE));
  headers['content-profile'] = r.cache.schema;
  return { status, headers, body: extra.isHead ? undefined : stripNulls(accept, row.body) };
}

/** What a write statement reported: rows affected, the representation, inserts, Location. */
export interface WriteResult {
  n: number;
  body: string;
  /** Rows inserted by an upsert (-1: not counted). */
  inserted: number;
  location?: string;
}

/** The answer to a write, from what its statements reported. */
export function finishWrite(
  r: RestRequest,
  kind: WriteKind,
  result: WriteResult,
  opts: { conflictTarget: boolean; upsertMerge: boolean },
): Outcome {
  const { accept, prefer } = r;
  const { n, body, inserted, location } = result;
  const representation = prefer.return === 'representation';
  const withBody = (status: number, headers: Record<string, string>): Outcome => ({
    status,
    headers: { ...headers, 'content-type': writeType(accept), 'content-profile': r.cache.schema },
    body: stripNulls(accept, body),
  });
  failNotSingle(accept, n);
  // PUT: exactly one row, whose primary key is the URL's (MainTx.hs failPut)
  if (kind === 'put') {
    if (n !== 1) throw apiError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)');
    const headers = preferenceApplied(prefer, 'put', false);
    if (representation) return withBody(inserted > 0 ? 201 : 200, headers);
    return { status: 204, headers };
  }
  if (kind !== 'create') failExceedsMaxAffected(prefer, n);
  const total = shouldCount(prefer) ? n : undefined;
  const headers: Record<string, string> = {
    'content-range': kind === 'update' ? contentRange(0, n - 1, total) : contentRange(1, 0, total),
    ...preferenceApplied(prefer, kind, opts.conflictTarget),
  };
  if (location) headers.location = location;
  if (kind === 'create') {
    const status = opts.upsertMerge && inserted === 0 ? 200 : 201;
    if (representation) return withBody(status, headers);
    return { status, headers };
  }
  if (representation) return withBody(200, headers);
  return { status: 204, headers };
}

/** The Content-Type of a write's representation. */
function writeType(accept: Accept): string {
  return accept.csv ? CSV_TYPE : accept.single ? OBJECT_TYPE : JSON_TYPE;
}
