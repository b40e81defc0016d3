import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { harbourKeys } from '../api/keys';

export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * Keeps the staff calendar live: INSERT and UPDATE on place_statuses and orders (cancellations,
 * moves and check-ins are updates; DELETE events are never relied on) invalidate every cached
 * calendar range. RLS decides per subscriber which rows arrive (staff see all).
 */
export function useCalendarRealtime(): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    void getSupabase().then((supabase) => {
      if (cancelled) return;
      const invalidate = () => void queryClient.invalidateQueries({ queryKey: harbourKeys.all });
      const channel = supabase.channel('harbour:calendar');
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
      cleanup = () => void supabase.removeChannel(channel);
    });
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [queryClient]);
  return state;
}
