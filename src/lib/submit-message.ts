import { isMissingRelation } from '@/lib/supabase-errors';

export class NotAvailableError extends Error {}
export class TooManyMessagesError extends Error {}

type Failure = { message: string; code?: string; hint?: string } | null;

/**
 * How a public form's write (a contact message, a service request) reports a refusal: the table
 * missing (the project without this part: NotAvailableError), the database's throttle
 * (too_many_messages: TooManyMessagesError), else the error as it came.
 */
export function checkSubmission(error: Failure) {
  if (!error) return;
  if (isMissingRelation(error)) throw new NotAvailableError(error.message);
  if (error.message === 'too_many_messages') throw new TooManyMessagesError(error.message);
  throw Object.assign(new Error(error.message), { code: error.code });
}
