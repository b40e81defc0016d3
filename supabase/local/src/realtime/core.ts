/**
 * What every part of the realtime service shares: the sockets and channels (Conn, Channel),
 * the channels by scope that broadcast and presence reach, and sending Phoenix frames (a reply
 * to a client's message, a push to a channel, a system message). As Realtime's
 * RealtimeWeb.RealtimeChannel state and Phoenix's channel transport; the frame encoding is
 * protocol.ts.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import type { StackContext } from '../context.ts';
import type { Policies } from './authorization.ts';
import type { SubscriptionParams } from './filters.ts';
import { encodeMessage, encodeReply, type DecodedMessage, type Vsn } from './protocol.ts';

/** The roles that may use Realtime (the API's: a token with another role is refused). */
export const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

/** One postgres_changes subscription of a channel, with the tables it covers. */
export interface Binding {
  id: number;
  raw: Record<string, unknown>;
  params: SubscriptionParams;
  entities: Set<string>;
  channel: Channel;
}

export interface PresenceMeta {
  phx_ref: string;
  [key: string]: unknown;
}

export interface Channel {
  conn: Conn;
  topic: string;
  subTopic: string;
  /** Key of the topic among channels: private and public channels of one name never mix. */
  scope: string;
  joinRef: string | null;
  private: boolean;
  selfBroadcast: boolean;
  ackBroadcast: boolean;
  presenceKey: string;
  presenceEnabled: boolean;
  presence?: PresenceMeta;
  /** A private channel's authorisations (Realtime's Policies), cached per join and token. */
  policies: Policies | null;
  accessToken: string;
  role: string;
  claims: Record<string, unknown>;
  rawChanges: unknown[];
  bindings: Binding[];
  tokenTimer?: NodeJS.Timeout;
  closed: boolean;
}

export interface Conn {
  ws: WebSocket;
  vsn: Vsn;
  apikey: string;
  /** The upgrade request's headers: `request.headers` for the private channel checks. */
  headers: Record<string, string>;
  channels: Map<string, Channel>;
  queue: Promise<void>;
}

export type RealtimeCore = ReturnType<typeof createRealtimeCore>;

export function createRealtimeCore(ctx: StackContext) {
  const { db, log } = ctx;
  const secret = new TextEncoder().encode(ctx.keys.jwtSecret);
  const conns = new Set<Conn>();
  /** Channels by scope (for broadcast and presence). */
  const scopes = new Map<string, Set<Channel>>();

  function send(conn: Conn, frame: string | Buffer) {
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    conn.ws.send(frame, { binary: typeof frame !== 'string' });
  }

  function reply(conn: Conn, m: DecodedMessage, status: 'ok' | 'error', response: unknown) {
    send(conn, encodeReply(conn.vsn, m.join_ref, m.ref, m.topic, status, response));
  }

  function push(ch: Channel, event: string, payload: unknown) {
    // Phoenix's phx_close carries the join ref as its ref too.
    const ref = event === 'phx_close' ? ch.joinRef : null;
    send(ch.conn, encodeMessage(ch.conn.vsn, { join_ref: ch.joinRef, ref, topic: ch.topic, event, payload }));
  }

  function systemMessage(ch: Channel, extension: string, status: 'ok' | 'error', message: string) {
    push(ch, 'system', { extension, status, message, channel: ch.subTopic });
  }

  return { ctx, db, log, secret, conns, scopes, send, reply, push, systemMessage };
}

/** A request's headers as one string each (`request.headers` for the policies). */
export function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
