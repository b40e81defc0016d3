import { queryOptions } from '@tanstack/react-query';
import { getSupabase, hasStoredSession } from '@/lib/auth';
import { addDaysIso, berlinDay, berlinToday } from '@/lib/dates';
import { orderKeys } from '@/features/orders/api/keys';
import type { Order, OrderJson } from '@/features/orders/api/types';
import { isUuid } from '@/lib/ids';

/** One order, if the visitor may read it (RLS: its owner or staff); null otherwise. */
export const orderQueryOptions = (id: string) =>
  queryOptions({
    queryKey: orderKeys.detail(id),
    queryFn: async (): Promise<Order | null> => {
      if (!isUuid(id) || !hasStoredSession()) return null;
      const supabase = await getSupabase();
      // jsonb columns: the generated row says Json (see OrderJson).
      const { data, error } = await supabase.from('orders').select('*').eq('id', id).maybeSingle().overrideTypes<OrderJson>();
      if (error) throw error;
      return data;
    },
    staleTime: 10_000,
  });

/** The visitor's own orders arriving today (Europe/Berlin), for /order/check-in without an id. */
export const arrivingTodayQueryOptions = () =>
  queryOptions({
    queryKey: orderKeys.arrivingToday(),
    queryFn: async (): Promise<Order[]> => {
      if (!hasStoredSession()) return [];
      const supabase = await getSupabase();
      const { data: session, error: sessionError } = await supabase.auth.getSession();
      if (sessionError) throw sessionError;
      const userId = session.session?.user.id;
      if (!userId) return [];
      const today = berlinToday();
      // Arrivals from today 00:00 to tomorrow 00:00 Berlin; a two-day window in UTC, filtered exactly below.
      const { data, error } = await supabase
        .from('orders')
        .select('*')
        .eq('user_id', userId)
        .in('status', ['unverified', 'confirmed', 'checked_in'])
        .gte('starts_at', `${addDaysIso(today, -1)}T12:00:00Z`)
        .lt('starts_at', `${addDaysIso(today, 1)}T12:00:00Z`)
        .order('starts_at')
        // jsonb columns: the generated row says Json (see OrderJson).
        .overrideTypes<OrderJson[]>();
      if (error) throw error;
      return data.filter((o) => berlinDay(o.starts_at) === today);
    },
    staleTime: 10_000,
  });
