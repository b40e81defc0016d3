/**
 * Broadcast: messages from a member to every member of its topic (itself only with
 * broadcast.self; an ack with broadcast.ack), and Realtime's REST broadcast, the batch
 * endpoint realtime-js send() falls back to before a channel is joined and the single-message
 * endpoint of httpSend(). On a private channel sending needs broadcast write and receiving
 * broadcast read (access.ts); a refused message is dropped without a reply. As Realtime's
 * BroadcastHandler, BroadcastController and BroadcastSingleController.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearer, HttpError, readBody, readJson, sendJson } from '../http.ts';
import type { Access } from './access.ts';
import { isObject, type Channel, type RealtimeCore } from './core.ts';
import { encodeMessage, encodeUserBroadcast, type DecodedMessage, type UserBroadcast, type Vsn } from './protocol.ts';
import { checkToken } from './tokens.ts';

export type Broadcast = ReturnType<typeof createBroadcast>;

export function createBroadcast(core: RealtimeCore, access: Access) {
  const { log, secret, scopes, send, reply } = core;
  const { mayWrite, mayBroadcastRest } = access;

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

  /**
   * Realtime's REST broadcast: the batch endpoint (what realtime-js send() falls back to
   * before a channel is joined) and the single-message endpoint of httpSend().
   */
  async function handleRest(req: IncomingMessage, res: ServerResponse, path: string) {
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
  }

  return { broadcast, handleRest };
}
