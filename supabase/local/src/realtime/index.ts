import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { WebSocketServer, WebSocket } from 'ws';
import type { Service, StackContext } from '../context.ts';
import { bearer, HttpError, readBody, readJson, sendJson } from '../http.ts';
import { CHANNEL, SETUP_SQL } from './sql.ts';
import {
  decodeFrame,
  encodeMessage,
  encodeReply,
  encodeUserBroadcast,
  FrameError,
  type DecodedMessage,
  type UserBroadcast,
  type Vsn,
} from './protocol.ts';
import { describeParams, paramsId, parseSubscription, type SubscriptionParams } from './filters.ts';
import { checkToken, type TokenCheck } from './tokens.ts';
import { emptyPolicies, readAuthorizations, writeAuthorizations, type AuthorizationContext, type Policies } from './authorization.ts';

/**
 * /realtime/v1: Supabase Realtime's websocket (the Phoenix protocol of @supabase/realtime-js
 * 2.x) with postgres_changes, broadcast and presence on public and private channels (private
 * ones authorised by the RLS policies on realtime.messages, see authorization.ts).
 *
 * Change capture: a row trigger on every table of the supabase_realtime publication NOTIFYs
 * each change (see sql.ts). Per change, one database call answers, for every distinct filter
 * set and every distinct subscriber claim set, whether the filters match and whether that role
 * with those claims may select the row (RLS decides), so many subscribers stay cheap even on
 * PGlite's single session. DELETE events are filtered on the replica identity columns only
 * and never RLS-checked; with RLS on, their old_record carries only the primary key (as
 * Realtime's walrus does).
 */

const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);
const CONFIRM_TOKEN_MS = 5 * 60 * 1000;
const MAX_RECORD_BYTES = 1024 * 1024;

interface Binding {
  id: number;
  raw: Record<string, unknown>;
  params: SubscriptionParams;
  entities: Set<string>;
  channel: Channel;
}

interface PresenceMeta {
  phx_ref: string;
  [key: string]: unknown;
}

interface Channel {
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

interface Conn {
  ws: WebSocket;
  vsn: Vsn;
  apikey: string;
  /** The upgrade request's headers: `request.headers` for the private channel checks. */
  headers: Record<string, string>;
  channels: Map<string, Channel>;
  queue: Promise<void>;
}

interface Change {
  s: string;
  t: string;
  o: 'INSERT' | 'UPDATE' | 'DELETE';
  ts: string;
  r: Record<string, unknown> | null;
  x: Record<string, unknown> | null;
  q?: number;
}

interface CheckResult {
  rls: boolean;
  pk: string[];
  ident: string[];
  cols: Record<string, { name: string; type: string }[]>;
  pk_ok: Record<string, boolean>;
  f: boolean[];
  v: boolean[];
}

const PG_CONDITIONS: Record<string, string> = {
  P0001: 'raise_exception',
  '22P02': 'invalid_text_representation',
  '22007': 'invalid_datetime_format',
  '22008': 'datetime_field_overflow',
  '22003': 'numeric_value_out_of_range',
  '2201B': 'invalid_regular_expression',
  '42704': 'undefined_object',
  '42883': 'undefined_function',
};

const qualified = (schema: string, table: string) => `${schema}.${table}`;
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function createRealtimeService(ctx: StackContext): Promise<Service> {
  const { db, log } = ctx;
  const secret = new TextEncoder().encode(ctx.keys.jwtSecret);
  // (Re)create the database side only when it changed since this database last saw it.
  const version = createHash('sha256').update(SETUP_SQL).digest('hex').slice(0, 16);
  const seen = await db.query<{ value: string }>(`select value from _supabase_local.meta where key = 'realtime_sql'`);
  if (seen.rows[0]?.value !== version) {
    await db.exec(SETUP_SQL);
    await db.query(
      `insert into _supabase_local.meta (key, value) values ('realtime_sql', $1) on conflict (key) do update set value = excluded.value`,
      [version],
    );
  }
  await db.query(`delete from _supabase_local.realtime_overflow`);
  await db.query(`select _supabase_local.realtime_sync_triggers()`);
  // Compile the check functions now rather than on the first change someone waits for.
  await db.query(
    `select _supabase_local.realtime_check('_supabase_local.realtime_overflow'::regclass, 'INSERT', '{"r": {"id": 1}}',
            '[[["id", "eq", "1", false]]]', '[{"role": "anon", "claims": {}}]')`,
  );

  const wss = new WebSocketServer({ noServer: true, maxPayload: 3 * 1024 * 1024 });
  const conns = new Set<Conn>();
  /** Channels by scope (for broadcast and presence). */
  const scopes = new Map<string, Set<Channel>>();
  /** postgres_changes bindings by table ("schema.table"). */
  const byEntity = new Map<string, Set<Binding>>();
  const presence = new Map<string, Map<string, PresenceMeta[]>>();

  // ---------------------------------------------------------------- change capture
  let syncing: Promise<unknown> = Promise.resolve();
  const syncTriggers = () => {
    syncing = syncing
      .then(() => db.query(`select _supabase_local.realtime_sync_triggers()`))
      .catch((error) => log.warn(`realtime: could not install change triggers: ${(error as Error).message}`));
    return syncing;
  };
  const onSchemaChanged = () => void syncTriggers();
  ctx.events.on('schema-changed', onSchemaChanged);

  let changes: Promise<void> = Promise.resolve();
  const unlisten = await db.listen(CHANNEL, (payload) => {
    changes = changes.then(() => processChange(payload)).catch((error) => log.error(`realtime: ${(error as Error).stack ?? error}`));
  });

  async function processChange(payload: string) {
    let text = payload;
    let change = JSON.parse(text) as Change;
    if (change.q !== undefined) {
      const parked = await db.query<{ payload: string }>(
        `delete from _supabase_local.realtime_overflow where id = $1 returning payload::text as payload`,
        [change.q],
      );
      if (!parked.rows[0]) return;
      text = parked.rows[0].payload;
      change = JSON.parse(text) as Change;
    }
    const entity = qualified(change.s, change.t);
    const candidates = [...(byEntity.get(entity) ?? [])].filter(
      (b) => !b.channel.closed && (b.params.action === '*' || b.params.action === change.o),
    );
    if (candidates.length === 0) return;

    const filterSets = new Map<string, number>();
    const claimSets = new Map<string, number>();
    const filterIndex = new Map<Binding, number>();
    const claimIndex = new Map<Channel, number>();
    // Claim sets grouped by role: the RLS statement's plan is reused while the role stays.
    candidates.sort((a, b) => (a.channel.role < b.channel.role ? -1 : a.channel.role > b.channel.role ? 1 : 0));
    for (const b of candidates) {
      if (b.params.filters.length > 0) {
        const key = JSON.stringify(b.params.filters);
        if (!filterSets.has(key)) filterSets.set(key, filterSets.size);
        filterIndex.set(b, filterSets.get(key)!);
      }
      if (!claimIndex.has(b.channel)) {
        const key = JSON.stringify({ role: b.channel.role, claims: b.channel.claims });
        if (!claimSets.has(key)) claimSets.set(key, claimSets.size);
        claimIndex.set(b.channel, claimSets.get(key)!);
      }
    }
    const { rows } = await db.query<{ r: CheckResult }>(
      `select _supabase_local.realtime_check($1::regclass, $2, $3::jsonb, $4::jsonb, $5::jsonb) as r`,
      [
        `${quoteIdent(change.s)}.${quoteIdent(change.t)}`,
        change.o,
        text,
        `[${[...filterSets.keys()].join(',')}]`,
        `[${[...claimSets.keys()].join(',')}]`,
      ],
    );
    const check = rows[0].r;

    // Group the visible bindings by channel (and column selection): one message per group.
    const perChannel = new Map<string, { ch: Channel; ids: number[]; select: string[] | null; error?: string }>();
    const channelKeys = new Map<Channel, number>();
    for (const b of candidates) {
      const ch = b.channel;
      let error: string | undefined;
      if (change.o !== 'DELETE' && check.pk.length === 0) error = 'Error 400: Bad Request, no primary key';
      else if (change.o !== 'DELETE' && check.pk_ok[ch.role] === false) error = 'Error 401: Unauthorized';
      if (!error) {
        const fi = filterIndex.get(b);
        if (fi !== undefined && !check.f[fi]) continue;
        if (change.o !== 'DELETE' && check.rls && !check.v[claimIndex.get(ch)!]) continue;
      }
      if (!channelKeys.has(ch)) channelKeys.set(ch, channelKeys.size);
      const groupKey = `${channelKeys.get(ch)}|${b.params.select?.join(',') ?? '*'}`;
      const entry = perChannel.get(groupKey) ?? { ch, ids: [], select: b.params.select, error };
      if (!entry.ids.includes(b.id)) entry.ids.push(b.id);
      perChannel.set(groupKey, entry);
    }

    // Realtime's limit for one change (poll_max_record_bytes, 1 MB): above it only values of at
    // most 64 bytes are sent, with a 413 error.
    const tooLarge = Buffer.byteLength(text) > MAX_RECORD_BYTES;
    const encoded = new Map<string, string>();
    for (const entry of perChannel.values()) {
      const ch = entry.ch;
      const data = entry.error ? errorData(change, entry.error) : changeData(change, check, ch.role, entry.select, tooLarge);
      const key = `${ch.conn.vsn}|${ch.topic}|${entry.ids.join(',')}|${ch.role}|${entry.select?.join(',') ?? ''}|${entry.error ?? ''}`;
      let frame = encoded.get(key);
      if (!frame) {
        frame = encodeMessage(ch.conn.vsn, {
          join_ref: null,
          ref: null,
          topic: ch.topic,
          event: 'postgres_changes',
          payload: { ids: entry.ids, data },
        });
        encoded.set(key, frame);
      }
      send(ch.conn, frame);
    }
  }

  /**
   * A change a subscriber's role may not be told about (401: no SELECT on the primary key) or
   * that cannot be checked (400: no primary key), as Realtime sends it: apply_rls returns only
   * schema, table and type with the error, and the poller's defaults fill the rest (columns [],
   * record / old_record {}, no commit timestamp). Realtime sends it to every subscriber of that
   * role to the table and action, whatever their filters; RLS is not asked.
   */
  function errorData(change: Change, error: string) {
    const base = { schema: change.s, table: change.t, commit_timestamp: null, type: change.o, columns: [], errors: [error] };
    return change.o === 'UPDATE' ? { ...base, record: {}, old_record: {} } : { ...base, record: {} };
  }

  function changeData(change: Change, check: CheckResult, role: string, select: string[] | null, tooLarge: boolean) {
    const pk = new Set(check.pk);
    const columns = (check.cols[role] ?? []).filter((c) => !select || select.includes(c.name) || pk.has(c.name));
    const allowed = new Set(columns.map((c) => c.name));
    const pick = (row: Record<string, unknown> | null, keep: (name: string) => boolean) => {
      if (!row) return null;
      const out: Record<string, unknown> = {};
      let any = false;
      for (const [k, v] of Object.entries(row)) {
        if (allowed.has(k) && keep(k) && (!tooLarge || Buffer.byteLength(JSON.stringify(v)) <= 64)) {
          out[k] = v;
          any = true;
        }
      }
      return any ? out : null;
    };
    const ident = new Set(check.ident);
    const base = { schema: change.s, table: change.t, commit_timestamp: change.ts, type: change.o, columns };
    const errors = tooLarge ? ['Error 413: Payload Too Large'] : null;
    if (change.o === 'INSERT') return { ...base, record: pick(change.r, () => true) ?? {}, errors };
    if (change.o === 'UPDATE') {
      return { ...base, record: pick(change.r, () => true) ?? {}, old_record: pick(change.x, (k) => ident.has(k)), errors };
    }
    return { ...base, old_record: pick(change.x, (k) => ident.has(k) && (!check.rls || pk.has(k))), errors };
  }

  // ---------------------------------------------------------------- sockets
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

  /** A database failure while subscribing is reported like Realtime's: as the subscription's error. */
  async function subscribeSafely(ch: Channel): Promise<{ bindings: Binding[] } | { error: string }> {
    try {
      return await subscribe(ch);
    } catch (error) {
      log.warn(`realtime: subscribing ${ch.topic} failed: ${(error as Error).message}`);
      return { error: `Unable to subscribe to changes with given parameters. Exception: ${(error as Error).message}` };
    }
  }

  /** Validates the channel's postgres_changes against the database, as its claims' role. */
  async function subscribe(ch: Channel): Promise<{ bindings: Binding[] } | { error: string }> {
    const bindings: Binding[] = [];
    for (const raw of ch.rawChanges as Record<string, unknown>[]) {
      const parsed = parseSubscription(raw);
      if (!parsed.ok) return { error: parsed.error };
      const p = parsed.params;
      const { rows } = await db.query<{ r: { entities?: [string, string][]; error?: string; code?: string; message?: string } }>(
        `select _supabase_local.realtime_subscribe_check($1, $2, $3, $4::jsonb) as r`,
        [ch.role, p.schema, p.table, JSON.stringify(p.filters)],
      );
      const r = rows[0].r;
      if (r.error === 'not_enabled') {
        return {
          error: `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [${describeParams(p)}]`,
        };
      }
      if (r.error) {
        const condition = PG_CONDITIONS[r.code ?? ''] ?? r.code;
        return {
          error:
            `Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: ` +
            `[${describeParams(p)}]. Exception: ERROR ${r.code} (${condition}) ${r.message}`,
        };
      }
      bindings.push({
        id: paramsId(raw),
        raw,
        params: p,
        entities: new Set((r.entities ?? []).map(([s, t]) => qualified(s, t))),
        channel: ch,
      });
    }
    return { bindings };
  }

  function register(ch: Channel, bindings: Binding[]) {
    unregister(ch);
    ch.bindings = bindings;
    for (const b of bindings) {
      for (const e of b.entities) {
        let set = byEntity.get(e);
        if (!set) byEntity.set(e, (set = new Set()));
        set.add(b);
      }
    }
  }

  function unregister(ch: Channel) {
    for (const b of ch.bindings) {
      for (const e of b.entities) {
        const set = byEntity.get(e);
        set?.delete(b);
        if (set?.size === 0) byEntity.delete(e);
      }
    }
    ch.bindings = [];
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

  // ---------------------------------------------------------------- private channels
  const readRefused = (subTopic: string) => `You do not have permissions to read from this Channel topic: ${subTopic}`;

  function authContext(
    topic: string,
    role: string,
    claims: Record<string, unknown>,
    headers: Record<string, string>,
  ): AuthorizationContext {
    return { topic, role, claims, headers };
  }

  /** Read authorisations, or null when a policy fails (Realtime's RlsPolicyError: refused). */
  async function authorizeRead(context: AuthorizationContext, presenceEnabled: boolean): Promise<Policies | null> {
    try {
      return await readAuthorizations(db, context, emptyPolicies(), presenceEnabled);
    } catch (error) {
      log.warn(`realtime: RlsPolicyError on ${context.topic}: ${(error as Error).message}`);
      return null;
    }
  }

  /** Whether a private channel may send on `extension`; evaluated once per join and token. */
  async function mayWrite(ch: Channel, extension: 'broadcast' | 'presence'): Promise<boolean> {
    let policies = ch.policies ?? emptyPolicies();
    if (policies[extension].write === undefined) {
      const context = authContext(ch.subTopic, ch.role, ch.claims, ch.conn.headers);
      try {
        if (extension === 'presence' && policies.presence.read === undefined)
          policies = await readAuthorizations(db, context, policies, true);
        policies = await writeAuthorizations(db, context, policies);
      } catch (error) {
        log.warn(`realtime: RlsPolicyError on ${ch.subTopic}: ${(error as Error).message}`);
        return false;
      }
      if (ch.closed) return false;
      ch.policies = policies;
    }
    return policies[extension].write === true;
  }

  /** Public channels always see presence; private ones with presence read. */
  const mayReadPresence = (ch: Channel) => !ch.private || ch.policies?.presence.read === true;

  /** Whether a REST caller may broadcast to a private topic (INSERT on realtime.messages). */
  async function mayBroadcastRest(topic: string, claims: Record<string, unknown>, req: IncomingMessage): Promise<boolean> {
    const role = String(claims.role);
    if (!API_ROLES.has(role)) return false;
    const policies = await writeAuthorizations(db, authContext(topic, role, claims, headerMap(req)), emptyPolicies());
    return policies.broadcast.write === true;
  }

  // ---------------------------------------------------------------- broadcast
  async function broadcast(ch: Channel, m: DecodedMessage) {
    const b = m.userBroadcast;
    if (!b && !isObject(m.payload)) return;
    // A private channel sends only with broadcast write (checked on first use, then cached);
    // otherwise the message is dropped without a reply, as Realtime's BroadcastHandler does.
    if (ch.private && !(await mayWrite(ch, 'broadcast'))) return;
    if (ch.closed) return;
    deliverBroadcast(ch.scope, ch.subTopic, b ?? (m.payload as Record<string, unknown>), ch.selfBroadcast ? undefined : ch);
    if (ch.ackBroadcast) reply(ch.conn, m, 'ok', {});
  }

  function deliverBroadcast(scope: string, subTopic: string, message: UserBroadcast | Record<string, unknown>, except?: Channel) {
    const topic = `realtime:${subTopic}`;
    const frames = new Map<Vsn, string | Buffer | undefined>();
    for (const member of scopes.get(scope) ?? []) {
      if (member === except || member.closed) continue;
      if (member.private && member.policies?.broadcast.read !== true) continue;
      const vsn = member.conn.vsn;
      if (!frames.has(vsn)) {
        frames.set(
          vsn,
          'encoding' in message && Buffer.isBuffer(message.data)
            ? encodeUserBroadcast(vsn, topic, message as UserBroadcast)
            : encodeMessage(vsn, { join_ref: null, ref: null, topic, event: 'broadcast', payload: message }),
        );
      }
      const frame = frames.get(vsn);
      if (frame !== undefined) send(member.conn, frame);
    }
  }

  // ---------------------------------------------------------------- presence
  function presenceState(scope: string) {
    const state: Record<string, { metas: PresenceMeta[] }> = {};
    for (const [key, metas] of presence.get(scope) ?? []) state[key] = { metas };
    return state;
  }

  function presenceDiff(
    scope: string,
    joins: Record<string, { metas: PresenceMeta[] }>,
    leaves: Record<string, { metas: PresenceMeta[] }>,
  ) {
    for (const member of scopes.get(scope) ?? []) {
      if (member.presenceEnabled && !member.closed && mayReadPresence(member)) push(member, 'presence_diff', { joins, leaves });
    }
  }

  function untrack(ch: Channel) {
    const meta = ch.presence;
    if (!meta) return;
    ch.presence = undefined;
    const byKey = presence.get(ch.scope);
    const metas = byKey?.get(ch.presenceKey)?.filter((x) => x !== meta) ?? [];
    if (metas.length > 0) byKey!.set(ch.presenceKey, metas);
    else byKey?.delete(ch.presenceKey);
    if (byKey?.size === 0) presence.delete(ch.scope);
    presenceDiff(ch.scope, {}, { [ch.presenceKey]: { metas: [meta] } });
  }

  async function presenceEvent(ch: Channel, m: DecodedMessage) {
    const payload = isObject(m.payload) ? m.payload : {};
    const event = typeof payload.event === 'string' ? payload.event.toLowerCase() : '';
    if (event === 'track') {
      // A private channel tracks only with presence write (Realtime's PresenceHandler: presence
      // read is authorised then too if the join did not check it); a refusal is an error reply.
      if (ch.private && !(await mayWrite(ch, 'presence'))) {
        if (!ch.closed) reply(ch.conn, m, 'error', {});
        return;
      }
      if (ch.closed) return;
      const state = payload.payload === undefined ? {} : payload.payload;
      if (!isObject(state)) {
        reply(ch.conn, m, 'error', { reason: 'Presence track payload must be a map' });
        return;
      }
      ch.presenceEnabled = true;
      const previous = ch.presence;
      const meta: PresenceMeta = { ...state, phx_ref: randomBytes(8).toString('base64url') };
      if (previous) meta.phx_ref_prev = previous.phx_ref;
      let byKey = presence.get(ch.scope);
      if (!byKey) presence.set(ch.scope, (byKey = new Map()));
      byKey.set(ch.presenceKey, [...(byKey.get(ch.presenceKey) ?? []).filter((x) => x !== previous), meta]);
      ch.presence = meta;
      presenceDiff(ch.scope, { [ch.presenceKey]: { metas: [meta] } }, previous ? { [ch.presenceKey]: { metas: [previous] } } : {});
      reply(ch.conn, m, 'ok', {});
    } else if (event === 'untrack') {
      untrack(ch);
      reply(ch.conn, m, 'ok', {});
    } else {
      reply(ch.conn, m, 'error', {});
    }
  }

  // ---------------------------------------------------------------- service
  return {
    async handle(req, res, path) {
      // Realtime's REST broadcast: the batch endpoint (what realtime-js send() falls back to
      // before a channel is joined) and the single-message endpoint of httpSend().
      const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/.exec(path);
      if (req.method !== 'POST' || (path !== '/api/broadcast' && !single)) {
        sendJson(res, 404, { message: 'Not found' });
        return;
      }
      const auth = await checkToken(bearer(req) ?? '', secret);
      if (!auth.ok) throw new HttpError(401, { message: auth.message });
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (single) {
        const [topic, event] = [decodeURIComponent(single[1]), decodeURIComponent(single[2])];
        const isPrivate = url.searchParams.get('private') === 'true';
        if (isPrivate) {
          // Realtime's SingleBroadcast: 403 "Unauthorized" without broadcast write; a failing
          // policy is 422 "RLS policy error".
          let allowed: boolean;
          try {
            allowed = await mayBroadcastRest(topic, auth.claims, req);
          } catch (error) {
            log.warn(`realtime: RlsPolicyError on ${topic}: ${(error as Error).message}`);
            throw new HttpError(422, { message: 'RLS policy error' });
          }
          if (!allowed) throw new HttpError(403, { message: 'Unauthorized' });
        }
        const body = await readBody(req, 3 * 1024 * 1024);
        const binary = /octet-stream/i.test(String(req.headers['content-type'] ?? ''));
        if (!binary) {
          try {
            JSON.parse(body.toString('utf8'));
          } catch {
            throw new HttpError(422, { message: 'Request body is not valid JSON' });
          }
        }
        deliverBroadcast(`${isPrivate ? 'private' : 'public'}:${topic}`, topic, {
          event,
          encoding: binary ? 'binary' : 'json',
          data: body,
        });
        res.writeHead(202).end();
        return;
      }
      const body = await readJson<{ messages?: unknown }>(req);
      const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : undefined;
      if (!messages) throw new HttpError(422, { message: 'Invalid payload: messages must be a list' });
      // Realtime's BatchBroadcast: private messages go out per topic only with broadcast write
      // (one check per topic); the others are dropped silently.
      const allowedTopics = new Map<string, boolean>();
      for (const msg of messages) {
        if (!isObject(msg) || typeof msg.topic !== 'string' || msg.private !== true || allowedTopics.has(msg.topic)) continue;
        const topic = msg.topic;
        allowedTopics.set(
          topic,
          await mayBroadcastRest(topic, auth.claims, req).catch((error: unknown) => {
            log.warn(`realtime: RlsPolicyError on ${topic}: ${(error as Error).message}`);
            return false;
          }),
        );
      }
      for (const msg of messages) {
        if (!isObject(msg) || typeof msg.topic !== 'string' || typeof msg.event !== 'string') continue;
        if (msg.private === true && allowedTopics.get(msg.topic) !== true) continue;
        deliverBroadcast(`${msg.private === true ? 'private' : 'public'}:${msg.topic}`, msg.topic, {
          type: 'broadcast',
          event: msg.event,
          payload: msg.payload ?? {},
        });
      }
      res.writeHead(202).end();
    },

    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const refuse = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        socket.end(
          `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : status === 404 ? 'Not Found' : 'Unauthorized'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
      };
      if (url.pathname !== '/realtime/v1/websocket') return refuse(404, { message: 'Not found' });
      const vsnParam = url.searchParams.get('vsn') ?? '1.0.0';
      if (vsnParam !== '1.0.0' && vsnParam !== '2.0.0') return refuse(400, { error: `unsupported vsn ${vsnParam}` });
      const apikey = url.searchParams.get('apikey') ?? (req.headers.apikey as string | undefined) ?? '';
      void checkToken(apikey, secret).then((c) => {
        if (socket.destroyed) return;
        if (!c.ok) return refuse(401, { error: c.message });
        wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, vsnParam, apikey, headerMap(req)));
      });
    },

    async close() {
      ctx.events.off('schema-changed', onSchemaChanged);
      for (const conn of conns) {
        for (const ch of conn.channels.values()) clearTimeout(ch.tokenTimer);
        conn.ws.terminate();
      }
      conns.clear();
      await new Promise<void>((r) => wss.close(() => r()));
      await unlisten().catch(() => {});
      await changes.catch(() => {});
      await syncing.catch(() => {});
    },
  };
}

/** A request's headers as one string each (`request.headers` for the policies). */
function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
