/**
 * Presence: who is on a channel's topic. track and untrack from a client, the full state to a
 * member that joins, a presence_diff to every member on each change (private channels: only
 * to members with presence read; tracking needs presence write). As Realtime's PresenceHandler
 * over Phoenix.Presence (metas with phx_ref and phx_ref_prev), kept in memory per scope.
 */
import { randomBytes } from 'node:crypto';
import type { Access } from './access.ts';
import { isObject, type Channel, type PresenceMeta, type RealtimeCore } from './core.ts';
import type { DecodedMessage } from './protocol.ts';

export type Presence = ReturnType<typeof createPresence>;

export function createPresence(core: RealtimeCore, access: Access) {
  const { scopes, push, reply } = core;
  const { mayReadPresence, mayWrite } = access;
  const presence = new Map<string, Map<string, PresenceMeta[]>>();

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

  return { presenceState, untrack, presenceEvent };
}
