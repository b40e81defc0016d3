import { queryOptions } from '@tanstack/react-query';
import { check } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { settingsKeys } from '@/features/admin/settings/api/settings';

/** The gauge thresholds (gauge_settings, ADR 0053): restricted and closed from these levels, in cm. */
export interface GaugeThresholds {
  restricted_from_cm: number;
  closed_from_cm: number;
}

export const gaugeThresholdsQueryOptions = () =>
  queryOptions({
    queryKey: [...settingsKeys.all, 'gauge-thresholds'] as const,
    queryFn: async (): Promise<GaugeThresholds | null> => {
      const db = await getSupabase();
      return check(await db.from('gauge_settings').select('restricted_from_cm,closed_from_cm').eq('id', 1).maybeSingle());
    },
  });

/**
 * Saves both thresholds through set_gauge_thresholds(): the database checks that the caller is an
 * admin (42501 admin_only) and the pair (22023 gauge_thresholds_invalid), and audits the change.
 */
export async function saveGaugeThresholds(values: GaugeThresholds): Promise<void> {
  const db = await getSupabase();
  check(
    await db.rpc('set_gauge_thresholds', {
      p_restricted_from_cm: values.restricted_from_cm,
      p_closed_from_cm: values.closed_from_cm,
    }),
  );
}
