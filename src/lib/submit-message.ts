import { getSupabase } from '@/lib/auth';
import { isMissingRelation } from '@/lib/supabase-errors';

export class NotAvailableError extends Error {}
export class TooManyMessagesError extends Error {}

type Failure = { message: string; code?: string; hint?: string } | null;

function check(error: Failure) {
  if (!error) return;
  if (isMissingRelation(error)) throw new NotAvailableError(error.message);
  if (error.message === 'too_many_messages') throw new TooManyMessagesError(error.message);
  throw Object.assign(new Error(error.message), { code: error.code });
}

/** A contact message to the harbour: send_contact_message() stores it and queues the e-mail (outbox). */
export async function sendContactMessage(args: { p_name: string; p_email: string; p_message: string; p_phone?: string; p_locale: string }) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('send_contact_message', args);
  check(error);
}

export const serviceKinds = [
  'ice',
  'boat_lift',
  'washing_machine',
  'mechanic',
  'diesel',
  'charter',
  'skipper_training',
  'parking',
  'other',
] as const;
export type ServiceKind = (typeof serviceKinds)[number];

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
  check(error);
}
