import type { QueryClient } from '@tanstack/react-query';
import type { useRouter } from '@tanstack/react-router';
import { getSupabase, identityQueryOptions, isStaff, safeInternalPath, type Identity } from '@/lib/auth';
import { activateLocale, isLocale, localeFromPath, persistLocale, storedLocale, stripLocale, withLocale, type Locale } from '@/lib/i18n';

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
 * Where a person lands after signing in (and after the second factor): `from` when it names a
 * page (internal paths only); else, and instead of the bare account page, staff and admins the
 * back office's overview, everyone else their account page.
 */
export function landingPath(identity: Identity | undefined, from: string | undefined, locale: Locale | undefined): string {
  const target = safeInternalPath(from);
  const staff = isStaff(identity);
  if (target && !(staff && /^\/account\/?$/.test(stripLocale(new URL(target, 'http://internal.invalid').pathname)))) return target;
  return withLocale(staff ? '/account/admin/overview' : '/account', locale);
}

/**
 * After any login: the profile's language applies when this device has no choice yet, then on to
 * `from` (internal paths only), the back office (staff) or /account. Returns false when the user is not fully logged in.
 */
export async function afterLogin(queryClient: QueryClient, router: ReturnType<typeof useRouter>, from?: string): Promise<boolean> {
  const identity = await queryClient.fetchQuery({ ...identityQueryOptions, staleTime: 0 });
  if (identity.status !== 'loggedIn') return false;
  const locale = localeFromPath(router.state.location.pathname);
  if (!storedLocale() && isLocale(identity.locale)) {
    persistLocale(identity.locale);
    if (!locale) await activateLocale(identity.locale);
  }
  await router.navigate({ href: landingPath(identity, from, locale), replace: true });
  return true;
}
