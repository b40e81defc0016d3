import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * Hands every new access token of the session to Realtime, so the channels already joined are
 * authorised with it (realtime-js sends it to each as an `access_token` message and Realtime
 * subscribes their postgres_changes again with the new claims: role, aal, sub).
 *
 * supabase-js 2.119 does this itself only on SIGNED_IN, TOKEN_REFRESHED and INITIAL_SESSION
 * (and falls back to the API key on SIGNED_OUT). The second factor's MFA_CHALLENGE_VERIFIED
 * turns an aal1 token into an aal2 one and is not among them, so staff who had just entered
 * their code kept receiving as aal1, which is to say nothing staff-only (RLS asks for aal2).
 * realtime-js's own refresh (its accessToken callback, on connect and every heartbeat) does not
 * repair that either: a channel that joined with the old token while the callback fetched the
 * new one is never sent the new one. Any event that carries a token the socket has not got yet
 * (MFA_CHALLENGE_VERIFIED, PASSWORD_RECOVERY, USER_UPDATED, or one of the events above before
 * supabase-js handles it) is handed over here; one that does not is left alone. setAuth with
 * an explicit token keeps realtime-js in callback mode (supabase-js's session stays the source).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the app's typed client and plain ones in tests
export function followSessionInRealtime(client: SupabaseClient<any, any, any>): { unsubscribe: () => void } {
  const { data } = client.auth.onAuthStateChange((event, session) => {
    const token = session?.access_token;
    if (event === 'SIGNED_OUT' || !token || token === client.realtime.accessTokenValue) return;
    // Synchronous up to the hand-over (no lock, no network): safe inside the auth callback.
    void client.realtime.setAuth(token);
  });
  return data.subscription;
}
