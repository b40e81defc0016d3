import type { Database } from '../db/types.ts';

/**
 * Private channel authorisation as Supabase Realtime does it (Realtime.Tenants.Authorization):
 * RLS policies on realtime.messages decide, with the caller's role, JWT claims, request headers
 * and the channel's topic (`realtime.topic()`) set for the transaction.
 *
 * - read (at join, and again on an access_token refresh): probe rows, one per extension
 *   (broadcast, and presence when the channel has presence enabled), are inserted by
 *   the service's own (admin) connection; then, as the caller, the ones SELECT returns are the extensions it
 *   may receive.
 * - write (on the first broadcast or presence track, and for REST broadcasts): as the caller,
 *   one INSERT per extension (broadcast and presence), each in a savepoint; a refusal
 *   (insufficient_privilege, e.g. "new row violates row-level security policy") means no.
 *
 * Each check runs in one transaction that is rolled back, so nothing is kept. A policy that
 * fails with another error is Realtime's rls_policy_error (the check throws).
 */

export interface Permission {
  read?: boolean;
  write?: boolean;
}

/** Realtime's Policies struct: undefined = not evaluated yet. */
export interface Policies {
  broadcast: Permission;
  presence: Permission;
}

export interface AuthorizationContext {
  topic: string;
  role: string;
  claims: Record<string, unknown>;
  headers: Record<string, string>;
}

export const emptyPolicies = (): Policies => ({ broadcast: {}, presence: {} });

class Rollback extends Error {}

async function check(
  db: Database,
  context: AuthorizationContext,
  mode: 'read' | 'write',
  extensions: ('broadcast' | 'presence')[],
): Promise<Record<string, boolean>> {
  let result: Record<string, boolean> = {};
  try {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ r: Record<string, boolean> }>(
        `select _supabase_local.realtime_authorize($1, $2, $3::jsonb, $4::jsonb, $5::text[], $6) as r`,
        [context.topic, context.role, JSON.stringify(context.claims), JSON.stringify(context.headers), extensions, mode],
      );
      result = rows[0].r;
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return result;
}

/** get_read_authorizations: presence is checked only when the channel has presence enabled. */
export async function readAuthorizations(
  db: Database,
  context: AuthorizationContext,
  policies: Policies,
  presence: boolean,
): Promise<Policies> {
  const r = await check(db, context, 'read', presence ? ['broadcast', 'presence'] : ['broadcast']);
  return {
    broadcast: { ...policies.broadcast, read: r.broadcast === true },
    presence: presence ? { ...policies.presence, read: r.presence === true } : { ...policies.presence },
  };
}

/** get_write_authorizations: both extensions, as Realtime checks them. */
export async function writeAuthorizations(db: Database, context: AuthorizationContext, policies: Policies): Promise<Policies> {
  const r = await check(db, context, 'write', ['broadcast', 'presence']);
  return {
    broadcast: { ...policies.broadcast, write: r.broadcast === true },
    presence: { ...policies.presence, write: r.presence === true },
  };
}
