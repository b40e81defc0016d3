/**
 * Channels: a socket's Phoenix messages and the life of each channel on it. Heartbeats; joins
 * (the token checked, a private channel's read authorised, its postgres_changes subscribed,
 * the presence state pushed, the system messages realtime-js waits for); leaves and closes
 * (bindings and presence dropped); access_token refreshes and the token's expiry, which shut a
 * channel down with a system error. Broadcast and presence messages go to their modules. As
 * Realtime's RealtimeWeb.UserSocket and RealtimeChannel (join, handle_in, confirm_token).
 */
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { readRefused, type Access } from './access.ts';
import type { Policies } from './authorization.ts';
import type { Broadcast } from './broadcast.ts';
import type { Changes } from './changes.ts';
import { API_ROLES, isObject, type Channel, type Conn, type RealtimeCore } from './core.ts';
import { paramsId } from './filters.ts';
import type { Presence } from './presence.ts';
import { decodeFrame, FrameError, type DecodedMessage, type Vsn } from './protocol.ts';
import { checkToken, type TokenCheck } from './tokens.ts';

const CONFIRM_TOKEN_MS = 5 * 60 * 1000;

export function createChannels(core: RealtimeCore, access: Access, changes: Changes, presence: Presence, broadcasts: Broadcast) {
  const { log, secret, conns, scopes, reply, push, systemMessage } = core;
  const { authContext, authorizeRead, mayReadPresence } = access;
  const { subscribeSafely, register, unregister } = changes;
  const { presenceState, untrack, presenceEvent } = presence;
  const { broadcast } = broadcasts;

  function onConnection(ws: WebSocket, vsn: Vsn, apikey: string, headers: Record<string, string>) {
    const conn: Conn = { ws, vsn, apikey, headers, channels: new Map(), queue: Promise.resolve() };
    conns.add(conn);
    ws.on('error', () => {});
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      let message: DecodedMessage;
      try {
        message = decodeFrame(vsn, buf, isBinary);
      } catch (error) {
        // Phoenix cannot decode the frame: the socket goes down, as on Realtime.
        log.warn(`realtime: ${error instanceof FrameError ? error.message : 'bad frame'}; closing the socket`);
        ws.close(1011, 'invalid message');
        return;
      }
      conn.queue = conn.queue
        .then(() => handleMessage(conn, message))
        .catch((error) => log.error(`realtime: ${(error as Error).stack ?? error}`));
    });
    ws.on('close', () => {
      conns.delete(conn);
      for (const ch of [...conn.channels.values()]) closeChannel(ch, false);
    });
  }

  async function handleMessage(conn: Conn, m: DecodedMessage) {
    if (m.topic === 'phoenix') {
      if (m.event === 'heartbeat') reply(conn, m, 'ok', {});
      return;
    }
    const ch = conn.channels.get(m.topic);
    if (m.event === 'phx_join') return join(conn, m, ch);
    if (!ch || (m.join_ref !== null && ch.joinRef !== null && m.join_ref !== ch.joinRef)) {
      if (m.event === 'phx_leave') reply(conn, m, 'ok', {});
      else reply(conn, m, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (m.event) {
      case 'phx_leave':
        reply(conn, m, 'ok', {});
        closeChannel(ch, true);
        return;
      case 'access_token':
        return refreshToken(ch, m.payload);
      case 'broadcast':
        return broadcast(ch, m);
      case 'presence':
        return presenceEvent(ch, m);
      default:
        return; // Realtime ignores unexpected client events
    }
  }

  // ---------------------------------------------------------------- join
  async function join(conn: Conn, m: DecodedMessage, existing: Channel | undefined) {
    if (!m.topic.startsWith('realtime:')) {
      reply(conn, m, 'error', { reason: 'unmatched topic' });
      return;
    }
    const subTopic = m.topic.slice('realtime:'.length);
    if (existing) {
      // Phoenix closes a channel joined again on the same socket before the new join.
      push(existing, 'phx_close', {});
      closeChannel(existing, false);
    }
    if (subTopic === '') {
      reply(conn, m, 'error', { reason: 'TopicNameRequired: You must provide a topic name' });
      return;
    }
    const payload = isObject(m.payload) ? m.payload : {};
    const config = isObject(payload.config) ? payload.config : {};
    const given =
      typeof payload.access_token === 'string'
        ? payload.access_token
        : typeof payload.user_token === 'string'
          ? payload.user_token
          : undefined;
    const token = given && !given.startsWith('sb_') ? given : conn.apikey;
    const checked = await checkToken(token, secret);
    if (!checked.ok) {
      reply(conn, m, 'error', { reason: joinTokenError(checked) });
      return;
    }
    const role = String(checked.claims.role);
    if (!API_ROLES.has(role)) {
      reply(conn, m, 'error', { reason: `Unauthorized: role "${role}" cannot use Realtime in the local stack` });
      return;
    }
    const broadcastConfig = isObject(config.broadcast) ? config.broadcast : {};
    const presenceConfig = isObject(config.presence) ? config.presence : {};
    const isPrivate = config.private === true;
    let policies: Policies | null = null;
    if (isPrivate) {
      // Realtime's maybe_assign_policies: the join needs broadcast or presence read.
      policies = await authorizeRead(authContext(subTopic, role, checked.claims, conn.headers), presenceConfig.enabled === true);
      if (!policies?.broadcast.read && !policies?.presence.read) {
        reply(conn, m, 'error', { reason: `Unauthorized: ${readRefused(subTopic)}` });
        return;
      }
    }
    const rawChanges = Array.isArray(config.postgres_changes) ? config.postgres_changes.filter((p) => p !== null && p !== undefined) : [];
    if (rawChanges.some((p) => !isObject(p))) {
      reply(conn, m, 'error', { reason: 'join crashed' });
      return;
    }
    const presenceKey = typeof presenceConfig.key === 'string' && presenceConfig.key !== '' ? presenceConfig.key : randomUUID();
    const ch: Channel = {
      conn,
      topic: m.topic,
      subTopic,
      scope: `${isPrivate ? 'private' : 'public'}:${subTopic}`,
      joinRef: m.join_ref ?? m.ref,
      private: isPrivate,
      selfBroadcast: broadcastConfig.self === true,
      ackBroadcast: broadcastConfig.ack === true,
      presenceKey,
      presenceEnabled: presenceConfig.enabled === true,
      policies,
      accessToken: token,
      role,
      claims: checked.claims,
      rawChanges,
      bindings: [],
      closed: false,
    };
    const subscribed = rawChanges.length > 0 ? await subscribeSafely(ch) : undefined;
    const wait = isObject(config.postgres_changes_options) && config.postgres_changes_options.wait === true;
    if (subscribed && 'error' in subscribed && wait) {
      reply(conn, m, 'error', { reason: `RealtimeDisabledForConfiguration: ${subscribed.error}` });
      return;
    }
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    conn.channels.set(ch.topic, ch);
    let members = scopes.get(ch.scope);
    if (!members) scopes.set(ch.scope, (members = new Set()));
    members.add(ch);
    if (subscribed && 'bindings' in subscribed) register(ch, subscribed.bindings);
    reply(conn, m, 'ok', { postgres_changes: rawChanges.map((raw) => ({ ...(raw as object), id: paramsId(raw) })) });
    if (ch.presenceEnabled && mayReadPresence(ch)) push(ch, 'presence_state', presenceState(ch.scope));
    // The change stream is always ready here (triggers, no replication slot to wait for).
    if (broadcastConfig.replication_ready === true) systemMessage(ch, 'system', 'ok', 'Replication connection established');
    if (subscribed) {
      if ('error' in subscribed) systemMessage(ch, 'postgres_changes', 'error', subscribed.error);
      else systemMessage(ch, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
    }
    scheduleTokenCheck(ch, checked.exp);
  }

  function joinTokenError(c: Exclude<TokenCheck, { ok: true }>): string {
    switch (c.kind) {
      case 'malformed':
        return `MalformedJWT: ${c.message}`;
      case 'signature':
        return `JwtSignatureError: ${c.message}`;
      default:
        return `InvalidJWTToken: ${c.message}`;
    }
  }

  function closeChannel(ch: Channel, sendClose: boolean) {
    if (ch.closed) return;
    ch.closed = true;
    if (sendClose) push(ch, 'phx_close', {});
    clearTimeout(ch.tokenTimer);
    unregister(ch);
    if (ch.conn.channels.get(ch.topic) === ch) ch.conn.channels.delete(ch.topic);
    const members = scopes.get(ch.scope);
    members?.delete(ch);
    if (members?.size === 0) scopes.delete(ch.scope);
    if (ch.presence) untrack(ch);
  }

  /** Realtime's channel shutdown: a system error message, then the channel closes. */
  function shutdown(ch: Channel, message: string) {
    systemMessage(ch, 'system', 'error', message);
    closeChannel(ch, true);
  }

  // ---------------------------------------------------------------- tokens
  function scheduleTokenCheck(ch: Channel, exp: number) {
    clearTimeout(ch.tokenTimer);
    const ms = Math.max(0, Math.min(CONFIRM_TOKEN_MS, exp * 1000 - Date.now()));
    ch.tokenTimer = setTimeout(() => {
      ch.conn.queue = ch.conn.queue.then(async () => {
        if (ch.closed) return;
        const c = await checkToken(ch.accessToken, secret);
        if (c.ok) scheduleTokenCheck(ch, c.exp);
        else shutdown(ch, c.kind === 'signature' ? ':signature_error' : c.message);
      });
    }, ms + 50);
    ch.tokenTimer.unref();
  }

  async function refreshToken(ch: Channel, payload: unknown) {
    const token = isObject(payload) ? payload.access_token : undefined;
    if (typeof token !== 'string' || token.startsWith('sb_') || token === ch.accessToken) return;
    const c = await checkToken(token, secret);
    if (!c.ok) {
      shutdown(ch, c.kind === 'signature' ? ':signature_error' : c.message);
      return;
    }
    const role = String(c.claims.role);
    if (!API_ROLES.has(role)) {
      shutdown(ch, `You no longer have permission to read from this Channel topic: ${ch.subTopic}`);
      return;
    }
    if (ch.private) {
      // Realtime re-evaluates the read policies with the new token (write ones on next use).
      const previous = ch.policies;
      const next = await authorizeRead(authContext(ch.subTopic, role, c.claims, ch.conn.headers), ch.presenceEnabled);
      if (ch.closed) return;
      if (!next?.broadcast.read && !next?.presence.read) {
        shutdown(ch, readRefused(ch.subTopic));
        return;
      }
      const revoked = (was: boolean | undefined, now: boolean | undefined) => was === true && now === false;
      if (revoked(previous?.broadcast.read, next.broadcast.read) || revoked(previous?.presence.read, next.presence.read)) {
        shutdown(ch, `You no longer have permission to read from this Channel topic: ${ch.subTopic}`);
        return;
      }
      ch.policies = next;
    }
    ch.accessToken = token;
    ch.role = role;
    ch.claims = c.claims;
    scheduleTokenCheck(ch, c.exp);
    if (ch.rawChanges.length > 0) {
      // Realtime subscribes again with the new claims and says so.
      const subscribed = await subscribeSafely(ch);
      if (ch.closed) return;
      if ('error' in subscribed) {
        unregister(ch);
        systemMessage(ch, 'postgres_changes', 'error', subscribed.error);
      } else {
        register(ch, subscribed.bindings);
        systemMessage(ch, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
      }
    }
  }

  return { onConnection };
}
