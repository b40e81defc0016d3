import { queryOptions } from '@tanstack/react-query';
import type { Tables } from '@/lib/database.types';
import { check, checkList } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { settingsKeys } from '@/features/admin/settings/api/settings';

/** The cancellation policy (issue 40): free until cancel_free_hours before arrival, then cancel_fee_percent of the price kept. */
export type CancellationPolicy = Pick<Tables<'harbour_settings'>, 'cancel_free_hours' | 'cancel_fee_percent'>;

export const cancellationPolicyKey = [...settingsKeys.all, 'cancellation-policy'] as const;

export const cancellationPolicySettingsQueryOptions = () =>
  queryOptions({
    queryKey: cancellationPolicyKey,
    queryFn: async (): Promise<CancellationPolicy | null> => {
      const db = await getSupabase();
      return check(await db.from('harbour_settings').select('cancel_free_hours,cancel_fee_percent').eq('id', 1).maybeSingle());
    },
  });

export async function saveCancellationPolicy(policy: CancellationPolicy): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('harbour_settings').update(policy).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}
