/**
 * Signing the demo harbour's staff in as a person would: password, then the second factor.
 *
 * The seed (supabase/seed.sql) requires two-factor sign-in of admins and harbour staff and gives
 * admin@ and hafen@ a verified TOTP factor with the keys below (published in the README). A
 * password-only session is aal1 and has no staff rights, so every test that acts as staff
 * completes the second step with a code computed from the key, the way an authenticator app would.
 *
 * GoTrue's verify deletes the person's other aal1 sessions (InvalidateSessionsWithAALLessThan):
 * two workers signing the same persona in at once can lose the session between password and
 * code. Then the sign-in starts again, a bounded number of times.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { totpCode } from '../../src/auth/totp.ts';

/** The demo staff's TOTP keys (base32), as seeded. */
export const DEMO_TOTP_SECRETS: Readonly<Record<string, string>> = {
  'admin@hafen.test': 'IFSG22LOIR2WK43TMVWGI33SMYZDAMRW',
  'hafen@hafen.test': 'JBQWMZLOIR2WK43TMVWGI33SMYZDAMRW',
};

const ATTEMPTS = 5;

type Factor = { id: string; factor_type: string; status: string };
type Session = { access_token: string; user?: { factors?: Factor[] } };

const verifiedTotp = (factors: Factor[] | undefined) => factors?.find((f) => f.factor_type === 'totp' && f.status === 'verified');

/**
 * supabase-js `signInWithPassword` plus, for a demo staff persona, challenge and verify: the
 * client then holds an aal2 session. Same result shape as signInWithPassword.
 */
export async function signInWithPassword(client: SupabaseClient, credentials: { email: string; password: string }) {
  for (let attempt = 1; ; attempt++) {
    const signedIn = await client.auth.signInWithPassword(credentials);
    const secret = DEMO_TOTP_SECRETS[credentials.email];
    const factor = verifiedTotp(signedIn.data.user?.factors as Factor[] | undefined);
    if (signedIn.error || !secret || !factor) return signedIn;
    const verified = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: totpCode(secret) });
    if (!verified.error) {
      const { data } = await client.auth.getSession();
      return { data: { session: data.session!, user: data.session!.user }, error: null } as typeof signedIn;
    }
    if (attempt >= ATTEMPTS) throw new Error(`second factor of ${credentials.email} failed ${ATTEMPTS} times: ${verified.error.message}`);
  }
}

/**
 * The same over plain HTTP (for helpers that keep the session themselves, e.g. to put it into a
 * browser's storage): the password grant, then POST /factors/{id}/challenge and /verify.
 * Returns the session object GoTrue answers (aal2 for demo staff).
 */
export async function passwordSession<T extends Session>(
  apiUrl: string, apikey: string, credentials: { email: string; password: string },
): Promise<T> {
  const call = async (path: string, body: unknown, token?: string) => fetch(`${apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  for (let attempt = 1; ; attempt++) {
    const res = await call('/token?grant_type=password', credentials);
    if (res.status !== 200) throw new Error(`login of ${credentials.email} failed: ${res.status} ${await res.text()}`);
    const session = (await res.json()) as T;
    const secret = DEMO_TOTP_SECRETS[credentials.email];
    const factor = verifiedTotp(session.user?.factors);
    if (!secret || !factor) return session;
    const challenge = await call(`/factors/${factor.id}/challenge`, {}, session.access_token);
    const challengeBody = await challenge.text();
    if (challenge.status === 200) {
      const verify = await call(`/factors/${factor.id}/verify`, { challenge_id: (JSON.parse(challengeBody) as { id: string }).id, code: totpCode(secret) }, session.access_token);
      if (verify.status === 200) return (await verify.json()) as T;
      if (attempt >= ATTEMPTS) throw new Error(`second factor of ${credentials.email}: ${verify.status} ${await verify.text()}`);
    } else if (attempt >= ATTEMPTS) throw new Error(`second factor of ${credentials.email}: ${challenge.status} ${challengeBody}`);
  }
}
