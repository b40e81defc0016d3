import type { getSupabase, Identity, MfaStep } from '@/lib/auth';

/** The `aal` claim of an access token (no verification: the server checks, this only routes). */
function sessionAal(accessToken: string): string | undefined {
  try {
    const part = accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return (JSON.parse(atob(part)) as { aal?: string }).aal;
  } catch {
    return undefined;
  }
}

/**
 * The identity of a stored session (src/lib/auth.ts loads this module only when there is one and
 * hands it its client: this module imports nothing of auth.ts but types).
 */
export async function loadSessionIdentity(supabase: Awaited<ReturnType<typeof getSupabase>>): Promise<Identity> {
  const { data } = await supabase.auth.getSession();
  const user = data.session?.user;
  if (!user) return { status: 'anonymous' };
  if (user.is_anonymous) return { status: 'guest', userId: user.id };
  const [profile, roles] = await Promise.all([
    supabase.from('profiles').select('id, locale').eq('id', user.id).maybeSingle(),
    supabase.from('user_roles').select('admin, harbor, user').eq('user_id', user.id).maybeSingle(),
  ]);
  if (profile.error || roles.error || !profile.data || !roles.data) {
    return { status: 'incomplete', userId: user.id, email: user.email };
  }
  const r = roles.data;
  const verified = (user.factors ?? []).some((f) => f.status === 'verified');
  let mfa: MfaStep | undefined;
  if (verified && sessionAal(data.session!.access_token) !== 'aal2') mfa = 'verify';
  else if (!verified && (r.admin || r.harbor)) {
    const required = await supabase.rpc('my_mfa_required');
    if (required.data === true) mfa = 'enrol';
  }
  return {
    status: 'loggedIn',
    userId: user.id,
    email: user.email,
    roles: { admin: r.admin, harbor: r.harbor, user: r.user },
    locale: profile.data.locale,
    mfa,
  };
}
