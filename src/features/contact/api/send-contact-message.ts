import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { checkSubmission } from '@/lib/submit-message';

/** A contact message to the harbour: send_contact_message() stores it and queues the e-mail (outbox). */
export async function sendContactMessage(args: { p_name: string; p_email: string; p_message: string; p_phone?: string; p_locale: string }) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('send_contact_message', args);
  checkSubmission(error);
}

/** Sends a contact message; submissionStatus(mutation) says what the form shows. */
export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
