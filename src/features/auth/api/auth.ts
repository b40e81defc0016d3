import type { QueryClient } from '@tanstack/react-query';
import type { useRouter } from '@tanstack/react-router';
import { getSupabase, identityQueryOptions, safeInternalPath } from '@/lib/auth';
import { activateLocale, isLocale, localeFromPath, persistLocale, storedLocale, withLocale } from '@/lib/i18n';

/** Sets the signed-in user's password (after the registration code or the recovery code). */
export async function setPassword(password: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.updateUser({ password });
  if (error) throw error;
}

/** E-mails the reset code/link (GoTrue answers the same whether or not the address exists). */
export async function sendResetEmail(email: string) {
  const supabase = await getSupabase();
  const path = withLocale('/auth/reset-password', localeFromPath(window.location.pathname));
  const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: `${window.location.origin}${path}` });
  if (error) throw error;
}

/** Signs in with the e-mailed recovery code. */
export async function verifyRecoveryCode(email: string, code: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.verifyOtp({ email, token: code, type: 'recovery' });
  if (error) throw error;
}

/**
 * After any login: the profile's language applies when this device has no choice yet, then on to
 * `from` (internal paths only) or /account. Returns false when the user is not fully logged in.
 */
export async function afterLogin(queryClient: QueryClient, router: ReturnType<typeof useRouter>, from?: string): Promise<boolean> {
  const identity = await queryClient.fetchQuery({ ...identityQueryOptions, staleTime: 0 });
  if (identity.status !== 'loggedIn') return false;
  const locale = localeFromPath(router.state.location.pathname);
  if (!storedLocale() && isLocale(identity.locale)) {
    persistLocale(identity.locale);
    if (!locale) await activateLocale(identity.locale);
  }
  const target = safeInternalPath(from) ?? withLocale('/account', locale);
  await router.navigate({ href: target, replace: true });
  return true;
}
