import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** Shared HTTP helpers for the stack's services. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String((body as { message: unknown }).message) : `HTTP ${status}`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

/**
 * After the answer, the rest of a request body nobody read is read and dropped, so the
 * connection serves the client's next request: nginx (Kong, in front of hosted Supabase) does
 * the same when it answers before reading the body (ngx_http_discard_request_body). Left
 * unread, the body's bytes wait in the socket in front of the next request, which then never
 * gets an answer and meets a reset connection. More than `limitBytes` still coming, or the
 * client still sending after `timeoutMs`, and the connection is closed instead (nginx's
 * lingering close has the same kind of bounds). docs/adr/0002-refused-request-connection.md.
 */
export function discardUnreadBody(req: IncomingMessage, res: ServerResponse, limitBytes = 16 * 1024 * 1024, timeoutMs = 10_000) {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    // Whoever read it (a proxy piping it on, a handler that stopped at a limit) lets go of it.
    req.unpipe();
    let seen = 0;
    const close = () => {
      clearTimeout(timer);
      req.socket?.destroy();
    };
    const timer = setTimeout(close, timeoutMs);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limitBytes) close();
    });
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
    req.resume();
  });
}

/** Reads the whole body, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit = 10 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, { message: 'Payload too large' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON body; bad JSON is the caller's error (400), never a 500. */
export async function readJson<T = unknown>(req: IncomingMessage, limit?: number): Promise<T | undefined> {
  const body = await readBody(req, limit);
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as T;
  } catch {
    throw new HttpError(400, { message: 'Request body is not valid JSON' });
  }
}

/** The bearer token of the request, if any. */
/**
 * Requests whose Authorization the gateway made from their `apikey` (the client sent none).
 * Supabase's Kong passes a legacy API key on as the header's whole value, without "Bearer "
 * (LUA_AUTH_EXPR in supabase/supabase docker/volumes/api/kong-entrypoint.sh), so GoTrue finds no
 * bearer token there; REST and Storage read it as the caller's key, as PostgREST and Storage do.
 */
export const gatewayBearer = new WeakSet<IncomingMessage>();

export function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header);
  return m ? m[1].trim() : undefined;
}

const plainAddress = (value: string): string => {
  let v = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracketed) v = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
  return v.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
};

const proxyLists = new WeakMap<readonly string[], BlockList>();

/**
 * The addresses the stack trusts to tell it the client's address in X-Forwarded-For: entries
 * of `[api] trusted_proxies` (an address or a CIDR block, IPv4 or IPv6). Throws on a bad entry.
 */
export function trustedProxyList(entries: readonly string[]): BlockList {
  let list = proxyLists.get(entries);
  if (list) return list;
  list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.trim().split('/');
    const plain = plainAddress(address ?? '');
    const family = isIP(plain);
    const bits = prefix === undefined ? undefined : Number(prefix);
    if (
      !family ||
      extra !== undefined ||
      (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128)))
    ) {
      throw new Error(`trusted proxy "${entry}": expected an IP address or a CIDR block`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(plain, type);
    else list.addSubnet(plain, bits, type);
  }
  proxyLists.set(entries, list);
  return list;
}

const isTrusted = (list: BlockList, address: string) => {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/**
 * The client's address, for per-IP limits and for the database (request.headers): the socket's
 * peer, unless that peer is a trusted proxy (`trustedProxies`, default none). Then
 * X-Forwarded-For is read from the right, as a proxy chain appends to it, and the first hop
 * that is not itself a trusted proxy is the client; whatever a client wrote further left is
 * ignored. A hop that is not an address ends the walk at the last trusted one.
 */
export function clientIp(req: IncomingMessage, trustedProxies: readonly string[] = []): string {
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  if (!peer) return 'unknown';
  if (trustedProxies.length === 0) return peer;
  const list = trustedProxyList(trustedProxies);
  if (!isTrusted(list, peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i]);
    if (!isIP(hop)) break;
    client = hop;
    if (!isTrusted(list, hop)) break;
  }
  return client;
}

/**
 * The request's headers as a gateway passes them on (to the database as `request.headers`, to
 * edge functions): string values only, with X-Forwarded-For and X-Real-IP replaced by the
 * client address the stack trusts (`clientIp`), so SQL can rely on them as on Supabase's
 * gateway and a client cannot choose its own address.
 */
export function forwardedHeaders(req: IncomingMessage, trustedProxies: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
  const ip = clientIp(req, trustedProxies);
  headers['x-forwarded-for'] = ip;
  headers['x-real-ip'] = ip;
  return headers;
}
