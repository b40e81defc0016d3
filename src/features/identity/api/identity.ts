import { getSupabase } from '@/lib/auth';

/**
 * The one identity path of docs/architecture.md "Identity, guests and verification", shared by the
 * booking flow, the order page and (later) /auth/register and /auth/login.
 */

/**
 * A session for whoever books without being logged in: an anonymous one, made once. Its
 * metadata carries the language, so a guest's confirmation e-mail goes out in it.
 */
export async function ensureSession(locale: string): Promise<{ userId: string; anonymous: boolean }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  if (data.session) return { userId: data.session.user.id, anonymous: !!data.session.user.is_anonymous };
  const signIn = await supabase.auth.signInAnonymously({ options: { data: { locale } } });
  if (signIn.error) throw signIn.error;
  return { userId: signIn.data.user!.id, anonymous: true };
}

/** E-mails a 6-digit code; the address's permanent user is created if new (with names and language). */
export async function sendEmailCode(email: string, data: { locale: string; firstName?: string; lastName?: string }) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.signInWithOtp({
    email,
    options: {
      shouldCreateUser: true,
      data: {
        locale: data.locale,
        ...(data.firstName ? { first_name: data.firstName } : {}),
        ...(data.lastName ? { last_name: data.lastName } : {}),
      },
    },
  });
  if (error) throw error;
}

/** Moves the open orders of guest sessions with this verified address to the signed-in user. */
export async function claimGuestOrders(): Promise<number> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('claim_guest_orders');
  if (error) throw error;
  return data ?? 0;
}

/** Signs in with the e-mailed code, sets a new customer's password, and claims guest orders. */
export async function verifyEmailCode(email: string, code: string, password?: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.verifyOtp({ email, token: code, type: 'email' });
  if (error) throw error;
  if (password) {
    const update = await supabase.auth.updateUser({ password });
    if (update.error) throw update.error;
  }
  return claimGuestOrders();
}

/** Password login; afterwards the guest orders of that address are claimed. */
export async function passwordLogin(email: string, password: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) throw error;
  return claimGuestOrders();
}

/** The auth error kinds a person is told about; one neutral message for failed logins. */
export function authErrorKind(error: unknown): 'credentials' | 'code' | 'rate' | 'weak-password' | 'second-factor' | 'network' {
  const e = error as { status?: number; code?: string; message?: string } | null;
  // A new password or e-mail address of someone with a second factor needs it confirmed first
  // (GoTrue's insufficient_aal, 401): not a failed login.
  if (e?.code === 'insufficient_aal') return 'second-factor';
  if (e?.code === 'weak_password') return 'weak-password';
  if (e?.status === 429 || e?.code === 'over_email_send_rate_limit' || e?.code === 'over_request_rate_limit') return 'rate';
  if (e?.code === 'otp_expired' || /token/i.test(e?.message ?? '')) return 'code';
  if (e?.status && e.status < 500) return 'credentials';
  return 'network';
}
