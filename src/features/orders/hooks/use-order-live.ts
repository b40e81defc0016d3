import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getRealtime } from '@/lib/auth';
import { orderKeys } from '@/features/orders/api/keys';

/**
 * While `enabled`, keeps one order and its payments live: an UPDATE of the order row (the
 * payment status the database derives from each new ledger row) refetches both.
 * RLS lets only the order's owner (and staff) receive them. The caller polls as well, bounded,
 * so a missed event only delays the page.
 */
export function useOrderLive(orderId: string, enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    void getRealtime().then((realtime) => {
      if (cancelled) return;
      const refetch = () => {
        void queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId) });
        void queryClient.invalidateQueries({ queryKey: orderKeys.payments(orderId) });
      };
      const channel = realtime
        .channel(`order:${orderId}`)
        .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'orders', filter: `id=eq.${orderId}` }, refetch)
        .subscribe((status) => {
          // Anything that changed before the subscription stood.
          if (status === 'SUBSCRIBED') refetch();
        });
      cleanup = () => void realtime.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [orderId, enabled, queryClient]);
}
