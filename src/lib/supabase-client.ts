import { AuthClient } from '@supabase/auth-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import type { FunctionsClient } from '@supabase/functions-js';
import type { RealtimeClient, RealtimeClientOptions } from '@supabase/realtime-js';
import type { StorageClient } from '@supabase/storage-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '@/lib/database.types';

/**
 * The app's Supabase client: what supabase-js's `createClient` builds (auth, PostgREST, Realtime,
 * Storage, Edge Functions, with the session's token on every request), composed from the same
 * packages, but with Realtime, Storage and Functions loaded on first use. Auth and PostgREST are
 * what every signed-in page needs; the three others only a few pages need, and they were 40 % of
 * supabase-js's 54 KB gzip in every back-office first load (issue 44 item 5; ADR 0043,
 * "Back-office pages"). The requests are supabase-js 2.119's: the same headers (apikey, the
 * session's bearer token or the key), the same auth storage key, the same Realtime parameters.
 *
 * `from`, `rpc`, `schema` and `auth` are typed exactly as supabase-js types them for the generated
 * schema (tests/unit/db-types.test.ts).
 */
type Typed = SupabaseClient<Database>;
export type AppSupabaseClient = Pick<Typed, 'auth' | 'from' | 'rpc' | 'schema'> & {
  /** The Realtime client (loaded on first call), following the session's tokens. */
  realtime(): Promise<RealtimeClient>;
  /** The Storage client (loaded on first call). */
  storage(): Promise<StorageClient>;
  /** The Edge Functions client (loaded on first call). */
  functions(): Promise<FunctionsClient>;
};

export type AppClientOptions = {
  auth?: { persistSession?: boolean; autoRefreshToken?: boolean; detectSessionInUrl?: boolean };
  realtime?: RealtimeClientOptions;
};

/** Publishable and secret keys (sb_…) are never sent as a bearer token to Edge Functions (supabase-js). */
const isNewApiKey = (key: string) => key.startsWith('sb_publishable_') || key.startsWith('sb_secret_');

export function createAppClient(url: string, key: string, options: AppClientOptions = {}): AppSupabaseClient {
  const base = new URL(url.endsWith('/') ? url : `${url}/`);
  const auth = new AuthClient({
    url: new URL('auth/v1', base).href,
    headers: { Authorization: `Bearer ${key}`, apikey: key },
    storageKey: `sb-${base.hostname.split('.')[0]}-auth-token`,
    autoRefreshToken: options.auth?.autoRefreshToken ?? true,
    persistSession: options.auth?.persistSession ?? true,
    detectSessionInUrl: options.auth?.detectSessionInUrl ?? true,
    flowType: 'implicit',
  });
  const sessionToken = async () => (await auth.getSession()).data.session?.access_token ?? null;
  const withAuth =
    (keyAsBearer: boolean): typeof fetch =>
    async (input, init) => {
      const token = await sessionToken();
      const headers = new Headers(init?.headers);
      if (!headers.has('apikey')) headers.set('apikey', key);
      const bearer = token ?? (keyAsBearer ? key : null);
      if (!headers.has('Authorization') && bearer) headers.set('Authorization', `Bearer ${bearer}`);
      return fetch(input, { ...init, headers });
    };
  const authedFetch = withAuth(true);
  const rest = new PostgrestClient<Database>(new URL('rest/v1', base).href, { schema: 'public', fetch: authedFetch });

  const wsUrl = new URL('realtime/v1', base);
  wsUrl.protocol = wsUrl.protocol.replace('http', 'ws');

  return {
    auth: auth as Typed['auth'],
    from: rest.from.bind(rest) as unknown as Typed['from'],
    rpc: rest.rpc.bind(rest) as unknown as Typed['rpc'],
    schema: rest.schema.bind(rest) as unknown as Typed['schema'],
    realtime: once(() =>
      import('@supabase/realtime-js').then(async ({ RealtimeClient }) => {
        const client = new RealtimeClient(wsUrl.href, {
          fetch: authedFetch,
          ...options.realtime,
          accessToken: async () => (await sessionToken()) ?? key,
          params: { apikey: key, ...options.realtime?.params },
        });
        // The session's token before the first channel joins: supabase-js hands it over at start
        // (INITIAL_SESSION); loaded later, a channel would otherwise join with the key while the
        // connect callback fetches the token, and never be sent it (followSessionInRealtime).
        const token = await sessionToken();
        if (token) await client.setAuth(token);
        followSessionInRealtime(auth as Typed['auth'], client);
        return client;
      }),
    ),
    storage: once(() =>
      import('@supabase/storage-js').then(({ StorageClient }) => new StorageClient(new URL('storage/v1', base).href, {}, authedFetch)),
    ),
    functions: once(() =>
      import('@supabase/functions-js').then(
        ({ FunctionsClient }) => new FunctionsClient(new URL('functions/v1', base).href, { customFetch: withAuth(!isNewApiKey(key)) }),
      ),
    ),
  };
}

/** The client `load` makes, made once; a load that failed (a chunk not fetched) is tried again on the next call. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= load().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}

/**
 * Hands every new access token of the session to Realtime, so the channels already joined are
 * authorised with it (realtime-js sends it to each as an `access_token` message and Realtime
 * subscribes their postgres_changes again with the new claims: role, aal, sub); signing out
 * falls back to the key.
 *
 * supabase-js 2.119 does this itself only on SIGNED_IN, TOKEN_REFRESHED and INITIAL_SESSION. The
 * second factor's MFA_CHALLENGE_VERIFIED turns an aal1 token into an aal2 one and is not among
 * them, so staff who had just entered their code kept receiving as aal1, which is to say nothing
 * staff-only (RLS asks for aal2). realtime-js's own refresh (its accessToken callback, on connect
 * and every heartbeat) does not repair that either: a channel that joined with the old token while
 * the callback fetched the new one is never sent the new one. So any event that carries a token
 * the socket has not got yet is handed over; one that does not is left alone. setAuth with an
 * explicit token keeps realtime-js in callback mode (the session stays the source).
 */
function followSessionInRealtime(auth: Typed['auth'], realtime: RealtimeClient) {
  auth.onAuthStateChange((event, session) => {
    const token = session?.access_token;
    // Synchronous up to the hand-over (no lock, no network): safe inside the auth callback.
    if (event === 'SIGNED_OUT') void realtime.setAuth();
    else if (token && token !== realtime.accessTokenValue) void realtime.setAuth(token);
  });
}
