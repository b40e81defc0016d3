import { queryOptions } from '@tanstack/react-query';
import { check } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { settingsKeys } from '@/features/admin/settings/api/settings';

/** The SEPA creditor settings (private.app_settings sepa_*; docs/adr/0048): admins read and write them. */
export interface SepaSettings {
  creditor_id: string;
  prenotification_days: number;
}

export const sepaSettingsQueryOptions = () =>
  queryOptions({
    queryKey: [...settingsKeys.all, 'sepa'] as const,
    queryFn: async (): Promise<SepaSettings> => {
      const db = await getSupabase();
      return check(await db.rpc('sepa_settings')) as unknown as SepaSettings;
    },
  });

/** Stores both; the database checks them again (sepa_invalid_setting, hint = the field). */
export async function saveSepaSettings(values: SepaSettings): Promise<SepaSettings> {
  const db = await getSupabase();
  const result = await db.rpc('save_sepa_settings', {
    p_creditor_id: values.creditor_id,
    p_prenotification_days: values.prenotification_days,
  });
  if (result.error) throw Object.assign(new Error(result.error.message), { code: result.error.code, hint: result.error.hint });
  return result.data as unknown as SepaSettings;
}
