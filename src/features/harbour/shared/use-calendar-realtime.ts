import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getRealtime } from '@/lib/auth';
import { coalesce } from '@/lib/coalesce';
import { harbourKeys } from '@/features/harbour/shared/keys';

export type LiveState = 'connecting' | 'live' | 'offline';

/** At most one refresh per this many milliseconds, however many events arrive (see coalesce). */
export const LIVE_REFRESH_MS = 1000;

/**
 * Keeps the staff calendar live: INSERT and UPDATE on place_statuses and orders (cancellations,
 * moves and check-ins are updates; DELETE events are never relied on) invalidate every cached
 * calendar range. RLS decides per subscriber which rows arrive (staff see all). A busy harbour
 * sends events from every desk and every guest: they are coalesced to one refresh per
 * LIVE_REFRESH_MS, or each would cancel the running refresh and none would finish.
 */
export function useCalendarRealtime(): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    void getRealtime().then((realtime) => {
      if (cancelled) return;
      const invalidate = coalesce(() => void queryClient.invalidateQueries({ queryKey: harbourKeys.all }), LIVE_REFRESH_MS);
      const channel = realtime.channel('harbour:calendar');
      for (const table of ['place_statuses', 'orders'] as const) {
        channel
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, invalidate)
          .on('postgres_changes', { event: 'UPDATE', schema: 'public', table }, invalidate);
      }
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') {
          setState('live');
          // Anything that changed between the first load and the subscription.
          invalidate();
        } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT' || status === 'CLOSED') {
          setState('offline');
        }
      });
      cleanup = () => {
        invalidate.cancel();
        void realtime.removeChannel(channel);
      };
    });
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [queryClient]);
  return state;
}
