import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

/** What went wrong with a second-factor step, for one clear message each. */
export type MfaProblem = 'wrong-code' | 'expired' | 'too-many' | 'needs-aal2' | 'failed';

export class MfaError extends Error {
  constructor(readonly problem: MfaProblem) {
    super(problem);
  }
}

/** GoTrue's MFA error codes -> the app's problems. */
function problemOf(error: { code?: string; status?: number }): MfaProblem {
  switch (error.code) {
    case 'mfa_verification_failed':
      return 'wrong-code';
    case 'mfa_challenge_expired':
    case 'mfa_factor_not_found':
    case 'mfa_ip_address_mismatch':
      return 'expired';
    case 'over_request_rate_limit':
      return 'too-many';
    case 'insufficient_aal':
      return 'needs-aal2';
  }
  return error.status === 429 ? 'too-many' : 'failed';
}

export interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/**
 * Starts a TOTP enrolment: an unfinished one (same friendly name) is dropped first, as GoTrue
 * refuses a second factor of the same name.
 */
export async function startEnrolment(): Promise<Enrolment> {
  const supabase = await getSupabase();
  const list = await supabase.auth.mfa.listFactors();
  if (list.error) throw new MfaError(problemOf(list.error));
  for (const factor of list.data.all.filter((f) => f.status === 'unverified')) {
    await supabase.auth.mfa.unenroll({ factorId: factor.id });
  }
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator' });
  if (error) throw new MfaError(problemOf(error));
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

/** Checks a code against a factor (challenge + verify): the session becomes aal2. */
export async function verifyCode(factorId: string, code: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  if (error) throw new MfaError(problemOf(error));
}

/** The user's verified TOTP factor (the one the second step asks for), or null (a query's data is never undefined). */
export async function verifiedFactor(): Promise<{ id: string; createdAt: string } | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw new MfaError(problemOf(error));
  const factor = data.totp[0];
  return factor ? { id: factor.id, createdAt: factor.created_at } : null;
}

/** Removes the factor (GoTrue requires an aal2 session for a verified one). */
export async function removeFactor(factorId: string) {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.unenroll({ factorId });
  if (error) throw new MfaError(problemOf(error));
  // The next token tells the database the session is aal1 again.
  await supabase.auth.refreshSession();
}

/** Starts setting up a TOTP factor (startEnrolment): its data is the QR code and the key. */
export function useStartEnrolment() {
  return useMutation({ mutationFn: startEnrolment });
}

/** Removes the verified factor (removeFactor); the factor and the identity are read again. */
export function useRemoveFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFactor,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['mfa-factor'] });
      await queryClient.invalidateQueries({ queryKey: ['identity'] });
    },
  });
}

export async function signOut() {
  const supabase = await getSupabase();
  await supabase.auth.signOut();
}
