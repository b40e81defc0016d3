import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

/** A contact message or service request as staff read it (RLS: staff read all). */
export interface InboxMessage {
  id: string;
  kind: 'contact' | 'service_request';
  service: string | null;
  name: string;
  email: string;
  phone: string | null;
  locale: string;
  message: string;
  preferred_date: string | null;
  boat: { name?: string; length?: number; width?: number } | null;
  status: 'open' | 'done';
  done_at: string | null;
  created_at: string;
}

export const inboxKeys = {
  all: ['harbour', 'inbox'] as const,
};

/** How many messages the inbox loads (open ones first, then the newest done ones). */
export const INBOX_LIMIT = 200;

/** Open messages first, each group newest first. */
export const inboxQueryOptions = () =>
  queryOptions({
    queryKey: inboxKeys.all,
    queryFn: async (): Promise<InboxMessage[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('contact_messages')
        .select('id, kind, service, name, email, phone, locale, message, preferred_date, boat, status, done_at, created_at')
        // 'open' sorts after 'done': descending puts the open ones first.
        .order('status', { ascending: false })
        .order('created_at', { ascending: false })
        .limit(INBOX_LIMIT);
      if (error) throw error;
      return (data ?? []) as unknown as InboxMessage[];
    },
    staleTime: 15_000,
  });

/** Marks a message done, or open again (set_message_done: staff only). */
export async function setMessageDone(id: string, done: boolean): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('set_message_done', { p_message_id: id, p_done: done });
  if (error) throw error;
}
