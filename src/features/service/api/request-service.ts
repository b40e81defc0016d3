import { useMutation } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { checkSubmission } from '@/lib/submit-message';
import type { ServiceKind } from '@/features/service/schemas/service-request';

/** A service request: request_service() stores it for the harbour team and queues the e-mail. */
export async function requestService(args: {
  p_service: ServiceKind;
  p_name: string;
  p_email: string;
  p_message: string;
  p_phone?: string;
  p_preferred_date?: string;
  p_boat?: { name: string };
  p_locale: string;
}) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('request_service', args);
  checkSubmission(error);
}

/** Sends a service request; submissionStatus(mutation) says what the form shows. */
export function useRequestService() {
  return useMutation({ mutationFn: requestService });
}
