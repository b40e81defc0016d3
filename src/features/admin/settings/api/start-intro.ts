import { queryOptions } from '@tanstack/react-query';
import type { Tables } from '@/lib/database.types';
import { check, checkList } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { settingsKeys } from '@/features/admin/settings/api/settings';

/** The start page's introduction: columns of the one settings row (admins read and write it). */
export const startIntroColumns = [
  'address_street',
  'address_postal_code',
  'address_city',
  'latitude',
  'longitude',
  'office_weekdays_opens',
  'office_weekdays_closes',
  'office_weekend_opens',
  'office_weekend_closes',
  'office_hours_note',
  'office_hours_note_en',
  'rhine_km',
  'vhf_channel',
  'water_approach',
  'water_approach_en',
  'contact_phone',
  'contact_email',
] as const;
export type StartIntro = Pick<Tables<'harbour_settings'>, (typeof startIntroColumns)[number] | 'updated_at'>;
export type StartIntroUpdate = Omit<StartIntro, 'updated_at'>;

export const startIntroQueryOptions = () =>
  queryOptions({
    queryKey: [...settingsKeys.all, 'start-intro'] as const,
    queryFn: async (): Promise<StartIntro | null> => {
      const db = await getSupabase();
      return check(
        await db
          .from('harbour_settings')
          .select(
            'address_street,address_postal_code,address_city,latitude,longitude,office_weekdays_opens,office_weekdays_closes,office_weekend_opens,office_weekend_closes,office_hours_note,office_hours_note_en,rhine_km,vhf_channel,water_approach,water_approach_en,contact_phone,contact_email,updated_at',
          )
          .eq('id', 1)
          .maybeSingle(),
      );
    },
  });

export async function saveStartIntro(values: StartIntroUpdate): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('harbour_settings').update(values).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}
