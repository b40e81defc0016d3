import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getRealtime } from '@/lib/auth';
import { extrasKeys } from '@/features/harbour/extras';
import { orderDeskKeys } from '@/features/harbour/orders/api/orders';
import { paymentDeskKeys } from '@/features/harbour/orders/api/payments';

/**
 * The order desk's payments panel stays live: a new row in the payments ledger of this order
 * (an online payment or refund Stripe reported, a desk payment at another desk) refetches the
 * ledger, the balance, the order (its derived payment status) and the deposit refunds still
 * due (Stripe confirmed one). RLS lets only staff and the
 * order's owner receive the rows.
 */
export function useOrderLedgerLive(orderId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    void getRealtime().then((realtime) => {
      if (cancelled) return;
      const refetch = () => {
        void queryClient.invalidateQueries({ queryKey: paymentDeskKeys.ledger(orderId) });
        void queryClient.invalidateQueries({ queryKey: paymentDeskKeys.balance(orderId) });
        void queryClient.invalidateQueries({ queryKey: orderDeskKeys.detail(orderId) });
        void queryClient.invalidateQueries({ queryKey: extrasKeys.refundsDue(orderId) });
      };
      const channel = realtime
        .channel(`harbour:ledger:${orderId}`)
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'payments', filter: `order_id=eq.${orderId}` }, refetch)
        .subscribe((status) => {
          if (status === 'SUBSCRIBED') refetch();
        });
      cleanup = () => void realtime.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [orderId, queryClient]);
}
