/**
 * What the payment edge functions share besides Stripe: JSON answers with CORS (a function
 * answers CORS itself on hosted Supabase), the caller's token, and the database's functions
 * through PostgREST (`/rest/v1/rpc/<name>`) with plain fetch, as send-mail does: no client
 * library to map, and the call runs as whoever's token it carries, so RLS and the functions'
 * own checks decide, exactly as when the app calls them.
 *
 * Errors are answered `{error: <code>}`: 4xx for bad input and for what the rules refuse, 503
 * when the database cannot be reached, never 500.
 */

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type, x-supabase-api-version',
  'access-control-allow-methods': 'POST, OPTIONS',
};

/**
 * Deno.serve with the handler's unexpected failures answered as JSON with CORS (logged), so a
 * browser sees `{error: 'internal_error'}` instead of an opaque network error.
 */
export function serve(handler: (req: Request) => Promise<Response>) {
  Deno.serve(async (req) => {
    try {
      return await handler(req);
    } catch (error) {
      console.error(error);
      return json(500, { error: 'internal_error' });
    }
  });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...CORS, ...headers } });
}

/** A file to download (a rendered PDF, an XML), with CORS and its file name readable by the browser. */
export function fileResponse(body: BodyInit, contentType: string, fileName: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'content-disposition',
      'content-type': contentType,
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
    },
  });
}

/** A PDF's bytes as a download. */
export const pdfResponse = (bytes: Uint8Array, fileName: string) =>
  fileResponse(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'application/pdf', fileName);

/** The preflight and wrong methods, answered before anything else. */
export function notPost(req: Request): Response | undefined {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  if (req.method !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'POST, OPTIONS' });
  return undefined;
}

/**
 * The start of a function a signed-in user calls with a JSON body: the preflight and wrong
 * methods answered, 401 without a user's token, the body as an object (undefined when it is
 * not a JSON object: the caller answers 400).
 */
export async function userRequest(
  req: Request,
): Promise<Response | { user: { token: string; userId: string }; body: Record<string, unknown> | undefined }> {
  const early = notPost(req);
  if (early) return early;
  const user = userToken(req);
  if (!user) return json(401, { error: 'not_signed_in' });
  return { user, body: await jsonBody(req) };
}

/** The request's JSON object body, or undefined (not JSON, not an object). */
export async function jsonBody(req: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body = await req.json();
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The caller's access token when it is a signed-in user's (anonymous guests included: their
 * sessions are role `authenticated` too), not the anon key. The gateway has verified the
 * signature (verify_jwt); PostgREST verifies it again on every call made with it.
 */
export function userToken(req: Request): { token: string; userId: string } | undefined {
  const match = /^Bearer\s+([\w-]+\.([\w-]+)\.[\w-]+)$/.exec(req.headers.get('authorization') ?? '');
  if (!match) return undefined;
  try {
    const payload = JSON.parse(base64UrlDecode(match[2]));
    return payload?.role === 'authenticated' && typeof payload.sub === 'string' ? { token: match[1], userId: payload.sub } : undefined;
  } catch {
    return undefined;
  }
}

function base64UrlDecode(segment: string): string {
  const base64 = segment
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(segment.length / 4) * 4, '=');
  return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
}

export function env(name: string): string | undefined {
  const value = Deno.env.get(name);
  return value === undefined || value === '' ? undefined : value;
}

export interface RpcError {
  code?: string;
  message?: string;
  hint?: string | null;
  details?: string | null;
}

export type RpcResult<T> = { ok: true; data: T } | { ok: false; status: number; error: RpcError };

/**
 * A database function through PostgREST, as the holder of `token` (a user's access token, or
 * the service role key for the functions only the service role may call). A network failure
 * is answered like PostgREST's own 503.
 */
export async function rpc<T>(name: string, args: Record<string, unknown>, token: 'service_role' | string): Promise<RpcResult<T>> {
  const url = env('SUPABASE_URL');
  const service = env('SUPABASE_SERVICE_ROLE_KEY');
  const anon = env('SUPABASE_ANON_KEY');
  if (!url || !service || !anon)
    return { ok: false, status: 503, error: { code: 'not_configured', message: 'SUPABASE_URL or keys are not set' } };
  const bearer = token === 'service_role' ? service : token;
  let res: Response;
  try {
    res = await fetch(`${url.replace(/\/$/, '')}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: token === 'service_role' ? service : anon, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(20_000),
    });
  } catch (error) {
    return {
      ok: false,
      status: 503,
      error: { code: 'database_unreachable', message: error instanceof Error ? error.message : String(error) },
    };
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text };
  }
  if (res.ok) return { ok: true, data: body as T };
  return { ok: false, status: res.status, error: (body ?? {}) as RpcError };
}

/** A refusal's code: the database's own (`raise exception 'order_already_paid'`), else by SQLSTATE. */
export function refusalCode(error: RpcError): string {
  if (error.message && /^[a-z][a-z0-9_]{2,62}$/.test(error.message)) return error.message;
  if (error.code === '42501') return 'forbidden';
  if (error.code === 'PT404' || error.code === 'PGRST202') return 'not_found';
  if (error.code === '22P02' || error.code === '22023') return 'invalid_request';
  return 'request_refused';
}

/**
 * A failed database call as the function's answer: the database's refusal keeps the 4xx
 * PostgREST gave it (400 a rule or bad input, 401/403 not allowed, 404 not found, 409 a
 * conflict) with its code; a database that cannot answer is 503 (retry later).
 */
export function refusal(result: { status: number; error: RpcError }): Response {
  if (result.status >= 500 || result.status < 400) {
    console.error('database unavailable:', result.status, result.error);
    return json(503, { error: 'database_unavailable' });
  }
  return json(result.status, { error: refusalCode(result.error) });
}
