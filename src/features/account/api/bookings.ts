import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Order, OrderJson } from '@/features/orders/api/types';

async function userId(): Promise<string | undefined> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  return data.session?.user.id;
}

/** The logged-in customer's orders, newest start first (spec: read by userId ordered by start descending). */
export const myBookingsQueryOptions = () =>
  queryOptions({
    queryKey: ['orders', 'mine'] as const,
    queryFn: async (): Promise<Order[]> => {
      const id = await userId();
      if (!id) return [];
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('orders')
        .select('*')
        .eq('user_id', id)
        .order('starts_at', { ascending: false })
        // jsonb columns: the generated row says Json (see OrderJson).
        .overrideTypes<OrderJson[]>();
      if (error) throw error;
      return data;
    },
    staleTime: 10_000,
  });

/** The next stay: the earliest open order that has not ended yet. */
export function nextBooking(orders: Order[], now = new Date()): Order | undefined {
  return orders
    .filter((o) => ['unverified', 'confirmed', 'checked_in'].includes(o.status) && new Date(o.ends_at) >= now)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at))[0];
}
