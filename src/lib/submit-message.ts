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

export type SubmissionStatus = 'idle' | 'sent' | 'unavailable' | 'tooMany' | 'failed';

/** What a public form shows after its write, from the mutation's state (idle again while a new one is under way). */
export function submissionStatus(m: { isSuccess: boolean; error: unknown }): SubmissionStatus {
  if (m.isSuccess) return 'sent';
  if (!m.error) return 'idle';
  return m.error instanceof NotAvailableError ? 'unavailable' : m.error instanceof TooManyMessagesError ? 'tooMany' : 'failed';
}
