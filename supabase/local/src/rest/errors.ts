import { HttpError } from '../http.ts';
import { pgErrorFields } from '../db/types.ts';

/** PostgREST's error body: keys in the order PostgREST's JSON encoder writes them. */
export interface PgrstBody {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
}

export function pgrstBody(code: string, message: string, details: string | null = null, hint: string | null = null): PgrstBody {
  return { code, details, hint, message };
}

/** An error PostgREST raises before (or instead of) touching the database. */
export function apiError(
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
  headers: Record<string, string> = {},
) {
  return new HttpError(status, pgrstBody(code, message, details, hint), headers);
}

/** PGRST100: a query parameter that does not parse (PostgREST's parsec message shape). */
export function parseError(what: string, input: string, position: number, details: string) {
  return apiError(400, 'PGRST100', `"failed to parse ${what} (${input})" (line 1, column ${position + 1})`, details);
}

/**
 * PGRST127, PostgREST's own "Feature not implemented" (400): the details name what the local
 * stack does not implement, so a request never gets a different result from the one hosted
 * PostgREST would give (docs/adr/0022-local-rest-postgrest-parity.md).
 */
export function notImplemented(feature: string) {
  return apiError(
    400,
    'PGRST127',
    'Feature not implemented',
    `The local stack (supabase/local) does not implement ${feature}; hosted PostgREST does.`,
    'Use a form the local stack implements (README, "What the local stack implements") or test this against hosted Supabase.',
  );
}

export function columnNotFound(relation: string, column: string) {
  // PostgREST lets Postgres report it: 42703 "column <rel>.<col> does not exist", status 400.
  return apiError(400, '42703', `column ${relation}.${column} does not exist`);
}

/** Status for a SQLSTATE, as PostgREST maps them (plus 23P01 -> 409 as our protocol notes ask). */
export function statusForSqlState(code: string, message: string, authed: boolean): number {
  if (code.startsWith('08')) return 503;
  if (code.startsWith('09')) return 500;
  if (code.startsWith('0L') || code.startsWith('0P')) return 403;
  if (code === '23503' || code === '23505' || code === '23P01') return 409;
  if (code === '25006') return 405;
  // cardinality_violation: pg-safeupdate's refusal and an upsert body naming one row twice are
  // the client's doing (PostgREST answers the latter 500; "nothing answers 500 to bad input")
  if (code === '21000')
    return message.endsWith('requires a WHERE clause') || message.includes('cannot affect row a second time') ? 400 : 500;
  if (code === '22023') return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
  if (code.startsWith('25') || code.startsWith('2D') || code.startsWith('38') || code.startsWith('39') || code.startsWith('3B')) return 500;
  if (code.startsWith('28')) return 403;
  if (code.startsWith('40')) return 500;
  if (code === '53400') return 500;
  if (code.startsWith('53')) return 503;
  // program limits the request's own values exceed (an array nested past 6 dimensions, a
  // statement or argument list too big): the client's doing, 400 (PostgREST answers 500)
  if (code === '54000' || code === '54001' || code === '54011' || code === '54023') return 400;
  if (code.startsWith('54') || code.startsWith('55')) return 500;
  if (code === '57014') return 500; // statement timeout (query_canceled), as PostgREST
  if (code === '57P01') return 503;
  if (code.startsWith('57') || code.startsWith('58') || code.startsWith('F0') || code.startsWith('HV')) return 500;
  if (code === 'P0001') return 400;
  if (code.startsWith('P0') || code.startsWith('XX')) return 500;
  if (code === '42883') return 404;
  if (code === '42P01') return 404;
  if (code === '42P17') return 500;
  if (code === '42501') return authed ? 403 : 401;
  if (code.startsWith('PT')) {
    const n = Number(code.slice(2));
    return Number.isInteger(n) && n >= 100 && n <= 599 ? n : 500;
  }
  return 400;
}

/** A Postgres error as PostgREST answers it (RAISE SQLSTATE 'PGRST' with JSON included). */
export function fromPgError(error: unknown, authed: boolean): HttpError {
  const f = pgErrorFields(error);
  const code = f.code ?? 'XX000';
  if (code === 'PGRST') {
    try {
      const m = JSON.parse(f.message) as Record<string, unknown>;
      const d = JSON.parse(f.detail ?? '') as { status?: number; headers?: Record<string, string> };
      if (typeof m.code !== 'string' || typeof m.message !== 'string' || typeof d.status !== 'number') throw new Error('shape');
      return new HttpError(
        d.status,
        pgrstBody(m.code, m.message, (m.details as string) ?? null, (m.hint as string) ?? null),
        Object.fromEntries(Object.entries(d.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)])),
      );
    } catch {
      return apiError(
        500,
        'PGRST121',
        `Could not parse JSON in the "RAISE SQLSTATE 'PGRST'" error`,
        `Invalid JSON value for MESSAGE: '${f.message}'`,
        "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
      );
    }
  }
  const status = statusForSqlState(code, f.message, authed);
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  return new HttpError(status, pgrstBody(code, f.message, f.detail ?? null, f.hint ?? null), headers);
}
