import { queryOptions } from '@tanstack/react-query';
import { check, checkList } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { settingsKeys } from '@/features/admin/settings/api/settings';

/** The under-keel margin (depth_settings, ADR 0053 "Draught against depth"), in cm. */
export const depthMarginQueryOptions = () =>
  queryOptions({
    queryKey: [...settingsKeys.all, 'depth-margin'] as const,
    queryFn: async (): Promise<number | null> => {
      const db = await getSupabase();
      const row = check(await db.from('depth_settings').select('margin_cm').eq('id', 1).maybeSingle());
      return row?.margin_cm ?? null;
    },
  });

/** Saves the margin; the database checks 0 to 200 cm (depth_settings_margin) and that the caller is an admin (RLS). */
export async function saveDepthMargin(marginCm: number): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('depth_settings').update({ margin_cm: marginCm }).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}
