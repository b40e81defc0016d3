import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Order, OrderJson } from '@/features/orders';

async function userId(): Promise<string | undefined> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  return data.session?.user.id;
}

/**
 * "Meine Buchungen" in the order a guest plans by (issue 40 item 13): the stays running now and
 * those to come, by arrival (soonest first), then the rest (ended, cancelled, lapsed), the most
 * recent first. Before, it was by start descending, and 24 December stood above today's stay.
 */
export function orderBookings(orders: Order[], now = new Date()): Order[] {
  const ahead = (o: Order) => ['unverified', 'confirmed', 'checked_in'].includes(o.status) && new Date(o.ends_at) > now;
  const coming = orders.filter(ahead).sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  const rest = orders.filter((o) => !ahead(o)).sort((a, b) => b.starts_at.localeCompare(a.starts_at));
  return [...coming, ...rest];
}

/** The logged-in customer's orders: current and upcoming by arrival, then past ones (orderBookings). */
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
      return orderBookings(data);
    },
    staleTime: 10_000,
  });

/** The next stay: the earliest open order that has not ended yet. */
export function nextBooking(orders: Order[], now = new Date()): Order | undefined {
  return orders
    .filter((o) => ['unverified', 'confirmed', 'checked_in'].includes(o.status) && new Date(o.ends_at) >= now)
    .sort((a, b) => a.starts_at.localeCompare(b.starts_at))[0];
}
