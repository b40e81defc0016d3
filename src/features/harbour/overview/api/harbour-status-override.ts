import { check } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import type { HarbourStatusKind } from '@/lib/harbour-status';

/**
 * Staff override the gauge status with a reason until they end it (ADR 0053); the database
 * checks that the caller is staff (42501 staff_only) and the reason (22023 invalid_reason), and
 * audits both.
 */
export async function setHarbourStatusOverride(status: HarbourStatusKind, reason: string): Promise<void> {
  const db = await getSupabase();
  check(await db.rpc('set_harbour_status_override', { p_status: status, p_reason: reason }));
}

/** Ends the override in force: the gauge decides again. */
export async function endHarbourStatusOverride(): Promise<void> {
  const db = await getSupabase();
  check(await db.rpc('end_harbour_status_override'));
}
