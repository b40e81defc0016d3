import { queryOptions } from '@tanstack/react-query';
import type { Tables } from '@/lib/database.types';
import { check, checkList } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';
import { settingsKeys } from '@/features/admin/settings/api/settings';

/** The booking horizon (harbour_settings, issue 40 item 10): months ahead and an optional last day. */
export type BookingHorizon = Pick<Tables<'harbour_settings'>, 'booking_horizon_months' | 'booking_last_day'>;

export const bookingHorizonQueryOptions = () =>
  queryOptions({
    queryKey: [...settingsKeys.all, 'booking-horizon'] as const,
    queryFn: async (): Promise<{ settings: BookingHorizon | null; lastDay: string }> => {
      const db = await getSupabase();
      const [settings, lastDay] = await Promise.all([
        db.from('harbour_settings').select('booking_horizon_months,booking_last_day').eq('id', 1).maybeSingle(),
        db.rpc('booking_last_day'),
      ]);
      return { settings: check(settings), lastDay: check(lastDay) as string };
    },
  });

/** Saves the horizon; the database checks 1 to 36 months (harbour_settings_booking_horizon_months). */
export async function saveBookingHorizon(values: BookingHorizon): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('harbour_settings').update(values).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}
