/**
 * collect-fees: creates the off-session SEPA Direct Debit PaymentIntents of the long-term fee
 * instalments whose collection day has come (docs/adr/0048-seasonal-fees-and-sepa.md).
 *
 * Called once a day by pg_cron + pg_net (99_cron.sql, private.request_fee_collection) or by
 * hand. public.due_fee_debits (service role) lists each fee with its amount (the balance), the
 * Stripe customer, payment method and mandate and the Idempotency-Key fee-<fee id>-<attempt>:
 * a run repeated the same day, or a retry of a lost answer, gets Stripe's first PaymentIntent
 * back, never a second debit. Each intent carries metadata.fee_id, which the webhook reads
 * (payment_intent.processing / succeeded / payment_failed, charge.dispute.created), and is
 * noted on the fee (public.note_fee_debit) so the next run skips it.
 *
 * Answers 200 {created, failed}; 503 when the database or Stripe is not configured.
 * Environment: SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, STRIPE_SECRET_KEY
 * (+ STRIPE_API_HOST/PORT/PROTOCOL locally).
 */
import { stripeFailure, stripeOrUnavailable } from '../_shared/stripe.ts';
import { json, refusal, rpc, serve } from '../_shared/api.ts';

interface DueDebit {
  fee_id: string;
  amount_cents: number;
  customer: string | null;
  payment_method: string;
  mandate: string;
  idempotency_key: string;
  description: string;
  invoice_number: string;
}

const TIME_BUDGET_MS = 50_000;

serve(async (req) => {
  if (req.method !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'POST' });
  const stripe = stripeOrUnavailable();
  if (stripe instanceof Response) return stripe;
  const due = await rpc<DueDebit[]>('due_fee_debits', { p_limit: 50 }, 'service_role');
  if (!due.ok) return refusal(due);
  const started = Date.now();
  let created = 0;
  const failed: { fee_id: string; error: unknown }[] = [];
  for (const debit of due.data) {
    if (Date.now() - started > TIME_BUDGET_MS) break;
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: debit.amount_cents,
          currency: 'eur',
          ...(debit.customer ? { customer: debit.customer } : {}),
          payment_method: debit.payment_method,
          allowed_payment_method_types: ['sepa_debit'],
          mandate: debit.mandate,
          off_session: true,
          confirm: true,
          description: debit.description,
          metadata: { fee_id: debit.fee_id, invoice_number: debit.invoice_number },
        },
        { idempotencyKey: debit.idempotency_key },
      );
      const noted = await rpc('note_fee_debit', { p_fee_id: debit.fee_id, p_payment_intent: intent.id }, 'service_role');
      if (!noted.ok) failed.push({ fee_id: debit.fee_id, error: noted.error });
      else created++;
    } catch (error) {
      const failure = stripeFailure(error);
      if (!failure) throw error;
      // A refusal at creation (a revoked mandate): the fee stays due and shows in the back
      // office; the webhook's payment_intent.payment_failed, where Stripe sends one, tells the holder.
      console.error(`collect-fees: Stripe refused fee ${debit.fee_id}`, failure.body);
      failed.push({ fee_id: debit.fee_id, error: failure.body });
    }
  }
  return json(200, { created, failed });
});
