import { queryOptions } from '@tanstack/react-query';
import { notFound } from '@tanstack/react-router';
import { authStorageKey } from '@/lib/env';
import type { AppSupabaseClient } from '@/lib/supabase';
import { loadQueryClient } from '@/lib/query';

export interface Roles {
  admin: boolean;
  harbor: boolean;
  user: boolean;
}

/**
 * Who is using the app. `loggedIn` follows docs/architecture.md "Identity, guests and verification": a non-anonymous user
 * with both a profile and a role record. Anonymous (guest-booking) sessions are `guest`.
 */
export type Identity =
  | { status: 'anonymous' }
  | { status: 'guest'; userId: string }
  | { status: 'incomplete'; userId: string; email?: string }
  | { status: 'loggedIn'; userId: string; email?: string; roles: Roles; locale?: string; mfa?: MfaStep };

/**
 * The second factor (issue 26): `verify` when the user has a verified TOTP factor but this
 * session is still aal1; `enrol` when the person's staff roles require one and none is set up.
 * The account area sends both to /auth/mfa instead of showing RLS refusals.
 */
export type MfaStep = 'verify' | 'enrol';

export const isStaff = (identity: Identity | undefined) =>
  identity?.status === 'loggedIn' && (identity.roles.admin || identity.roles.harbor);

export const isAdmin = (identity: Identity | undefined) => identity?.status === 'loggedIn' && identity.roles.admin;

/**
 * `beforeLoad` of the admin-only back-office routes: harbour staff pass the /account/admin
 * layout but get the 404 page here (RLS and the functions refuse their writes anyway).
 */
export function requireAdmin({ context }: { context: { identity?: Identity } }) {
  if (!isAdmin(context.identity)) throw notFound();
}

/** Is there any stored session? Without one, supabase-js need not even be loaded. */
export function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(authStorageKey) !== null;
  } catch {
    return false;
  }
}

let onAuthChange: ((event: string) => void) | undefined;
let watching = false;

/**
 * The Supabase client, loaded on first use (keeps supabase-js out of the initial bundle).
 * Once loaded, auth events refetch the identity and re-run the route guards.
 */
export async function getSupabase(): Promise<AppSupabaseClient> {
  const { supabase } = await import('@/lib/supabase');
  if (!watching && onAuthChange) {
    watching = true;
    const handler = onAuthChange;
    supabase.auth.onAuthStateChange((event) => {
      if (event === 'INITIAL_SESSION' || event === 'TOKEN_REFRESHED') return;
      // Leave the auth callback before touching the client again (supabase-js holds a lock).
      setTimeout(() => handler(event), 0);
    });
  }
  return supabase;
}

/** The Realtime client of the app's Supabase client (loaded on first use, following the session). */
export async function getRealtime() {
  return (await getSupabase()).realtime();
}

/** Wires auth events to the query cache and the router; signing out clears every cached query. */
export function watchAuth(invalidateRouter: () => void) {
  onAuthChange = async (event) => {
    const queryClient = await loadQueryClient();
    if (event === 'SIGNED_OUT') queryClient.clear();
    await queryClient.invalidateQueries({ queryKey: ['identity'] });
    invalidateRouter();
  };
  if (hasStoredSession()) void getSupabase();
}

/** The visitor's identity; the code that asks Supabase loads only with a stored session. */
async function loadIdentity(): Promise<Identity> {
  if (!hasStoredSession()) return { status: 'anonymous' };
  const [{ loadSessionIdentity }, supabase] = await Promise.all([import('@/lib/load-identity'), getSupabase()]);
  return loadSessionIdentity(supabase);
}

export const identityQueryOptions = queryOptions({
  queryKey: ['identity'],
  queryFn: loadIdentity,
  staleTime: Infinity,
  retry: false,
});

/** A redirect target is followed only when it is an internal path (no scheme, no //host). */
export function safeInternalPath(from: unknown): string | undefined {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return undefined;
  try {
    const url = new URL(from, 'http://internal.invalid');
    if (url.origin !== 'http://internal.invalid') return undefined;
    return url.pathname + url.search + url.hash;
  } catch {
    return undefined;
  }
}
