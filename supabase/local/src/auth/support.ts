import type { IncomingMessage, ServerResponse } from 'node:http';
import { DatabaseTimeoutError, isConnectionError, isPgError, pgErrorFields } from '../db/types.ts';

/**
 * The auth service's clock. Tests shift it (`clock.offsetMs`) to let codes expire, rate limits
 * refill and refresh-token reuse intervals pass without waiting; everything time-dependent in
 * the service reads it, and timestamps it writes come from it, as GoTrue uses its own clock.
 */
export const clock = {
  offsetMs: 0,
  now(): number {
    return Date.now() + this.offsetMs;
  },
  iso(): string {
    return new Date(this.now()).toISOString();
  },
};

/** An error answered the way GoTrue answers its HTTPError (see `send`). */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const tooMany = (code: string, message: string) => new AuthError(429, code, message);
export const internal = (message: string) => new AuthError(500, 'unexpected_failure', message);

/**
 * The answer while the database is down, unreachable or restarting: 503 (504 when it did not
 * answer within the deadline), as REST answers then, never a 500. supabase-js treats 502-504 as
 * retryable (AuthRetryableFetchError): a session refresh is retried instead of signing the
 * person out. The pool reconnects by itself, so the next request after the outage works.
 * Undefined for any other error.
 */
export function databaseUnavailable(error: unknown): AuthError | undefined {
  if (error instanceof DatabaseTimeoutError)
    return new AuthError(504, 'request_timeout', 'The database did not answer in time. Please try again.');
  const pgCode = isPgError(error) ? (pgErrorFields(error).code ?? '') : '';
  if (isConnectionError(error) || pgCode.startsWith('08') || pgCode === '57P01' || pgCode === '57P02' || pgCode === '57P03') {
    return new AuthError(503, 'unexpected_failure', 'The database is unavailable. Please try again in a moment.');
  }
  return undefined;
}

export class WeakPasswordError extends AuthError {
  constructor(
    message: string,
    readonly reasons: string[],
  ) {
    super(422, 'weak_password', message);
  }
}

const API_VERSION_HEADER = 'x-supabase-api-version';

/** The API version the client asked for: '2024-01-01' (or later, clamped) or '' (initial). */
export function apiVersion(req: IncomingMessage): string {
  const raw = req.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) return '';
  return value >= '2024-01-01' ? '2024-01-01' : '';
}

/**
 * Writes an error as GoTrue does: with API version 2024-01-01 `{code, message}` and the
 * version header echoed; before it the legacy `{code: status, error_code, msg}`. The
 * `x-sb-error-code` header carries the code either way.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, error: AuthError) {
  const version = apiVersion(req);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (version) headers['X-Supabase-Api-Version'] = version;
  let code = error.code;
  if (!code) code = error.status >= 500 ? 'unexpected_failure' : 'unknown';
  headers['x-sb-error-code'] = code;
  let body: Record<string, unknown>;
  if (version) body = { code, message: error.message };
  else body = { code: error.status, error_code: code, msg: error.message };
  if (error instanceof WeakPasswordError) body.weak_password = { reasons: error.reasons };
  Object.assign(body, error.extra);
  res.writeHead(error.status, headers);
  res.end(JSON.stringify(body));
}

/** Go duration strings as the CLI writes them ("1s", "60s", "1m30s", "1h"), in ms. */
export function parseDuration(text: string, fallbackMs: number): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let matched = '';
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    matched += m[0];
  }
  return matched && matched === text.trim() ? total : fallbackMs;
}

/**
 * A token bucket per key (GoTrue uses tollbooth per IP): `burst` requests at once, refilled
 * at `perSecond`. Reads the service clock, so tests can let it refill.
 */
export class TokenBucket {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    readonly burst: number,
    readonly perSecond: number,
  ) {}

  take(key: string): boolean {
    const now = clock.now();
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    // A clock set back (tests move clock.offsetMs) refills nothing rather than draining.
    b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, now - b.at) / 1000) * this.perSecond);
    b.at = Math.max(b.at, now);
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.buckets.delete(this.buckets.keys().next().value as string);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

/** N events per fixed interval (GoTrue's e-mail limit: email_sent per hour for the project). */
export class IntervalLimiter {
  private windowStart = 0;
  private count = 0;
  constructor(
    readonly events: number,
    readonly intervalMs: number,
  ) {}

  allow(): boolean {
    const now = clock.now();
    if (now - this.windowStart >= this.intervalMs) {
      this.windowStart = now;
      this.count = 0;
    }
    if (this.count >= this.events) return false;
    this.count += 1;
    return true;
  }
}

/** Reads a JSON object body field as GoTrue's decoder would: wrong types are bad_json. */
export class Params {
  constructor(private readonly body: Record<string, unknown>) {}

  static of(body: unknown): Params {
    if (body === undefined || body === null) return new Params({});
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('bad_json', 'Could not parse request body as JSON: json: cannot unmarshal into Go value of type object');
    }
    return new Params(body as Record<string, unknown>);
  }

  private wrong(name: string, type: string): never {
    throw badRequest(
      'bad_json',
      `Could not parse request body as JSON: json: cannot unmarshal ${typeof this.body[name]} into Go struct field .${name} of type ${type}`,
    );
  }

  has(name: string) {
    return this.body[name] !== undefined && this.body[name] !== null;
  }

  str(name: string): string {
    const v = this.body[name];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') this.wrong(name, 'string');
    return v;
  }

  optStr(name: string): string | undefined {
    return this.has(name) ? this.str(name) : undefined;
  }

  bool(name: string, fallback = false): boolean {
    const v = this.body[name];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'boolean') this.wrong(name, 'bool');
    return v;
  }

  obj(name: string): Record<string, unknown> | undefined {
    const v = this.body[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) this.wrong(name, 'map[string]interface {}');
    return v as Record<string, unknown>;
  }
}
