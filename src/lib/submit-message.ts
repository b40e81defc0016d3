import { getSupabase } from './auth';
import { isMissingRelation } from './supabase-errors';

export class NotAvailableError extends Error {}

/**
 * Sends a contact message or service request through a database function that queues the
 * e-mail to the harbour (ARCHITECTURE.md: mail goes through the outbox). Throws
 * NotAvailableError while the function does not exist.
 */
export async function submitMessage(fn: 'submit_contact_message' | 'submit_service_request', args: Record<string, unknown>) {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc(fn, args);
  if (error) {
    if (isMissingRelation(error) || error.code === '42501') throw new NotAvailableError(error.message);
    throw error;
  }
}
