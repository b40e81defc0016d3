import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getRealtime } from '@/lib/auth';
import { coalesce } from '@/lib/coalesce';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { inboxKeys } from '@/features/harbour/inbox/api/inbox';
import { LIVE_REFRESH_MS } from '@/features/harbour/shared/use-calendar-realtime';

/**
 * New and handled contact messages and service requests, staff answers (and, for admins, applications) refresh
 * the inbox and the overview: INSERT and UPDATE only (RLS decides who receives what).
 */
export function useInboxRealtime() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    void getRealtime().then((realtime) => {
      if (cancelled) return;
      const invalidate = coalesce(() => {
        void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
        void queryClient.invalidateQueries({ queryKey: harbourKeys.overview() });
      }, LIVE_REFRESH_MS);
      const channel = realtime.channel('harbour:inbox');
      for (const table of ['contact_messages', 'long_term_applications', 'message_replies'] as const) {
        channel
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table }, invalidate)
          .on('postgres_changes', { event: 'UPDATE', schema: 'public', table }, invalidate);
      }
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') invalidate();
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
}
