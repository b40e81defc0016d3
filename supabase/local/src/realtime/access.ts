/**
 * Who may do what on a private channel: read (join, token refresh) and write (the first
 * broadcast or presence track, a REST broadcast), evaluated by the RLS policies on
 * realtime.messages (authorization.ts) and cached on the channel per join and token. A policy
 * that fails is Realtime's RlsPolicyError: refused. As Realtime's Authorization and the
 * policy checks of its BroadcastHandler and PresenceHandler.
 */
import type { IncomingMessage } from 'node:http';
import { emptyPolicies, readAuthorizations, writeAuthorizations, type AuthorizationContext, type Policies } from './authorization.ts';
import { API_ROLES, headerMap, type Channel, type RealtimeCore } from './core.ts';

export const readRefused = (subTopic: string) => `You do not have permissions to read from this Channel topic: ${subTopic}`;

export type Access = ReturnType<typeof createAccess>;

export function createAccess(core: RealtimeCore) {
  const { db, log } = core;

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

  return { authContext, authorizeRead, mayWrite, mayReadPresence, mayBroadcastRest };
}
