import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useExtrasAction } from '@/features/harbour/extras';
import { Refused } from '@/lib/refused';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';

/** contact_messages.kind and .status: text with check constraints in the generated row. */
export type InboxKind = 'contact' | 'service_request';
export type InboxStatus = 'open' | 'done';

/** The narrower view of a message's row: its checked text columns and the jsonb boat of a service request. */
type InboxOverride = {
  kind: InboxKind;
  status: InboxStatus;
  boat: { name?: string; length?: number; width?: number } | null;
  message_replies: MessageReply[];
};

/** A staff answer on a message's thread (e-mailed to the sender). */
export type MessageReply = Pick<Tables<'message_replies'>, 'id' | 'body' | 'author_name' | 'created_at'>;

/** A contact message or service request as staff read it (RLS: staff read all). */
export type InboxMessage = Pick<
  Tables<'contact_messages'>,
  'id' | 'service' | 'name' | 'email' | 'phone' | 'locale' | 'message' | 'preferred_date' | 'done_at' | 'created_at'
> &
  InboxOverride;

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
        .select(
          'id, kind, service, name, email, phone, locale, message, preferred_date, boat, status, done_at, created_at, message_replies(id, body, author_name, created_at)',
        )
        // 'open' sorts after 'done': descending puts the open ones first.
        .order('status', { ascending: false })
        .order('created_at', { ascending: false })
        .limit(INBOX_LIMIT)
        .overrideTypes<InboxOverride[]>();
      if (error) throw error;
      for (const m of data) m.message_replies.sort((a, b) => a.created_at.localeCompare(b.created_at));
      return data;
    },
    staleTime: 15_000,
  });

/** Marks a message done, or open again (set_message_done: staff only). */
export async function setMessageDone(id: string, done: boolean): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('set_message_done', { p_message_id: id, p_done: done });
  if (error) throw error;
}

/** Staff answer a message: e-mailed to the sender in their language, kept on the thread (reply_to_message: staff only). */
export async function replyToMessage(id: string, body: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('reply_to_message', { p_message_id: id, p_body: body });
  if (error) throw error;
}

/** An open long-term application as admins read it in the inbox (RLS: admins read all), with its thread. */
export type InboxApplication = Pick<
  Tables<'long_term_applications'>,
  'id' | 'queue_number' | 'email' | 'first_name' | 'last_name' | 'phone' | 'locale' | 'message' | 'desired_start' | 'created_at'
> & {
  boat: { name?: string; length?: number; width?: number } | null;
  message_replies: MessageReply[];
};

/** Open long-term applications, oldest first (the waiting list's order), with the answers sent so far. */
export const inboxApplicationsQueryOptions = () =>
  queryOptions({
    queryKey: [...inboxKeys.all, 'applications'] as const,
    queryFn: async (): Promise<InboxApplication[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('long_term_applications')
        .select(
          'id, queue_number, email, first_name, last_name, phone, locale, message, desired_start, boat, created_at, message_replies(id, body, author_name, created_at)',
        )
        .eq('status', 'open')
        .order('created_at')
        .limit(INBOX_LIMIT)
        .overrideTypes<{ boat: InboxApplication['boat'] }[]>();
      if (error) throw error;
      for (const a of data) a.message_replies.sort((x, y) => x.created_at.localeCompare(y.created_at));
      return data;
    },
    staleTime: 15_000,
  });

/** Admins answer an application without deciding it: e-mailed to the applicant, kept on its thread (reply_to_application: admins only). */
export async function replyToApplication(id: string, body: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('reply_to_application', { p_application_id: id, p_body: body });
  if (error) throw error;
}

/**
 * Takes an open service request on as an extra of the booking with this number
 * (accept_service_request through the extras action); a number without a booking is refused
 * as 'no_booking'. Success waits for the inbox to be read again.
 */
export function useAcceptServiceRequest() {
  const queryClient = useQueryClient();
  const action = useExtrasAction();
  return useMutation({
    mutationFn: async (input: { messageId: string; bookingNumber: string; extraId: string; quantity: number }) => {
      const supabase = await getSupabase();
      const found = await supabase.from('orders').select('id').eq('booking_number', input.bookingNumber).maybeSingle();
      if (found.error || !found.data) throw new Refused('no_booking');
      await action.mutateAsync({
        type: 'accept',
        messageId: input.messageId,
        orderId: found.data.id,
        extraId: input.extraId,
        quantity: input.quantity,
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}
