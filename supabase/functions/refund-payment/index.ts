/**
 * refund-payment: POST {order_id, amount_cents, idempotency_key} with a staff member's token ->
 * {refund_id, status}: refunds all or part of the order's online payment through Stripe.
 *
 * Money is safe to retry (ground rule 6, docs/adr/0003-refund-idempotency.md): idempotency_key
 * is a UUID the caller makes when a person confirms a refund and sends again with every retry
 * of that refund (a double click, a retry after a timeout); a new refund gets a new key.
 * public.prepare_online_refund, as the caller, decides (staff only; the rules of issue 11: a
 * completed stay is never refunded in full; not more than what is left) and records the
 * request by its key, or finds it: a retry gets the same request back, whatever the ledger
 * recorded in between, and the same key with another order or amount is refused (422
 * request_key_reused). The refund is created at Stripe with the Idempotency-Key
 * refund-<idempotency_key>, so retries of one request make at most one refund (Stripe answers a
 * known key with its first answer, and a request running at the same time with 409
 * idempotency_key_in_use: answered 409 refund_in_progress, to retry), while a new refund after
 * one failed (a new key) is a new refund, not the failed one's answer replayed. Once the request
 * knows its refund, a retry answers it (its status read from Stripe) without asking Stripe to
 * make one. The refund Stripe made is noted at once (note_online_refund_requested, with the
 * request): what of it pays back a failed refund is then not paid at the desk as well. The
 * ledger and the order's status follow Stripe's refund events through stripe-webhook, not this
 * answer.
 *
 * A guest's cancellation (body {cancellation_of: order id}): the card refund cancel_booking
 * recorded, the owner may send it (refundCancellation below).
 *
 * A deposit paid online (body {order_extra_id}): public.prepare_deposit_refund takes the
 * deposit back (it no longer bills; the guest is mailed) and names the payment intent and the
 * amount; the refund carries metadata deposit_return and order_extra_id, so the webhook records
 * it as that deposit's return, not a refund of the stay. Nothing held for it (never paid): 200
 * {refund_id: null}. The same body for a deposit already returned online whose refund is not in
 * the ledger retries the refund (the database answers it again without taking the deposit back
 * twice). The Idempotency-Key carries the database's attempt number, which moves on only after
 * a known failure (a refusal noted here, or a refund Stripe reported failed): a double click or a
 * retry after a timeout reuses the key, so Stripe answers with the refund it may already have
 * made instead of making a second. The refund Stripe made is noted at once
 * (note_deposit_refund_requested): until the webhook records it or reports it failed, the
 * deposit is not paid back at the desk as well.
 *
 * Answers: 400 invalid_request (bad body/amount; code invalid_idempotency_key: a refund of the
 * stay without a UUID key), the database's refusal with its 4xx and code,
 * Stripe's refusal as 4xx with Stripe's error code (e.g. charge_already_refunded), 502 when
 * Stripe fails or cannot be reached, 503 when the database cannot; never 500.
 */
import { stripeFailure, stripeOrUnavailable } from '../_shared/stripe.ts';
import { UUID, json, refusal, rpc, serve, userRequest } from '../_shared/api.ts';

/** Far above any berth's price (EUR 1,000,000.00): what is larger is a typo, not a refund. */
const MAX_CENTS = 100_000_000;

serve(async (req) => {
  const start = await userRequest(req);
  if (start instanceof Response) return start;
  const { user, body } = start;
  if (body?.order_extra_id !== undefined) return refundDeposit(body.order_extra_id, user);
  if (body?.cancellation_of !== undefined) return refundCancellation(body.cancellation_of, user);
  const orderId = body?.order_id;
  const amount = body?.amount_cents;
  const requestKey = body?.idempotency_key;
  if (
    typeof orderId !== 'string' ||
    !UUID.test(orderId) ||
    typeof amount !== 'number' ||
    !Number.isSafeInteger(amount) ||
    amount <= 0 ||
    amount > MAX_CENTS
  ) {
    return json(400, { error: 'invalid_request' });
  }
  if (typeof requestKey !== 'string' || !UUID.test(requestKey))
    return json(400, { error: 'invalid_request', code: 'invalid_idempotency_key' });

  const prepared = await rpc<{ payment_intent: string; refund_id: string | null; replay: boolean; idempotency_key: string }>(
    'prepare_online_refund',
    { p_order_id: orderId, p_amount_cents: amount, p_request_key: requestKey.toLowerCase() },
    user.token,
  );
  if (!prepared.ok) return refusal(prepared);
  const { payment_intent: paymentIntent, refund_id: knownRefund, idempotency_key: idempotencyKey } = prepared.data;

  return refundByRequest({
    paymentIntent,
    amount,
    knownRefund,
    idempotencyKey,
    requestKey: requestKey.toLowerCase(),
    metadata: { order_id: orderId, requested_by: user.userId },
    what: 'the refund',
  });
});

/**
 * What a guest's cancellation gives back of an online payment (issue 40, ADR 0010): cancel_booking
 * recorded it as one refund request under a key derived from the order; the owner's page (or
 * staff) sends it here, as often as it likes: public.prepare_cancellation_refund answers the same
 * request every time (Stripe's Idempotency-Key refund-<key>; once the refund is known, that refund
 * is read, never a new one made). Nothing to refund: 200 {refund_id: null}. After 15 minutes
 * without a refund it is refused (409 request_key_expired): the office pays it back.
 */
async function refundCancellation(orderId: unknown, user: { token: string; userId: string }): Promise<Response> {
  if (typeof orderId !== 'string' || !UUID.test(orderId)) return json(400, { error: 'invalid_request' });
  const prepared = await rpc<{
    amount_cents: number | null;
    payment_intent?: string;
    refund_id?: string | null;
    request_key?: string;
    idempotency_key?: string;
  }>('prepare_cancellation_refund', { p_order_id: orderId }, user.token);
  if (!prepared.ok) return refusal(prepared);
  const {
    amount_cents: amount,
    payment_intent: paymentIntent,
    refund_id: knownRefund,
    request_key: requestKey,
    idempotency_key: idempotencyKey,
  } = prepared.data;
  if (!amount || !paymentIntent || !requestKey || !idempotencyKey) return json(200, { refund_id: null, status: 'nothing_to_refund' });
  return refundByRequest({
    paymentIntent,
    amount,
    knownRefund: knownRefund ?? null,
    idempotencyKey,
    requestKey,
    metadata: { order_id: orderId, requested_by: user.userId, cancellation: 'true' },
    what: 'the cancellation refund',
  });
}

/**
 * A refund under a request the database prepared (prepare_online_refund, prepare_cancellation_refund):
 * a retry whose refund is known gets that refund as Stripe has it now, never a new one; otherwise
 * Stripe makes it under the request's Idempotency-Key. It is noted before the webhook tells how it
 * ends: what of it pays back a refund that failed before is then no longer paid at the desk as well
 * (private.payment_desk_refundable), and the request knows its refund. The same request still
 * running at Stripe (a second click while the first waits) answers 409 refund_in_progress: retried
 * with the same key, it gets the refund the first one makes.
 */
async function refundByRequest(r: {
  paymentIntent: string;
  amount: number;
  knownRefund: string | null;
  idempotencyKey: string;
  requestKey: string;
  metadata: Record<string, string>;
  what: string;
}): Promise<Response> {
  const stripe = stripeOrUnavailable();
  if (stripe instanceof Response) return stripe;
  try {
    if (r.knownRefund) {
      const refund = await stripe.refunds.retrieve(r.knownRefund);
      return json(200, { refund_id: refund.id, status: refund.status });
    }
    const refund = await stripe.refunds.create(
      { payment_intent: r.paymentIntent, amount: r.amount, metadata: { ...r.metadata, request_key: r.requestKey } },
      { idempotencyKey: r.idempotencyKey },
    );
    const noted = await rpc(
      'note_online_refund_requested',
      { p_payment_intent: r.paymentIntent, p_refund_id: refund.id, p_amount_cents: r.amount, p_request_key: r.requestKey },
      'service_role',
    );
    if (!noted.ok) console.error(`refund-payment: could not note ${r.what}`, noted.error);
    return json(200, { refund_id: refund.id, status: refund.status });
  } catch (error) {
    const failure = stripeFailure(error);
    if (!failure) throw error;
    console.error(`refund-payment: Stripe refused ${r.what}`, failure.body);
    if (failure.body.stripe_code === 'idempotency_key_in_use') return json(409, { error: 'refund_in_progress' });
    return json(failure.status, failure.body);
  }
}

/** A returned deposit paid online goes back to the card through Stripe (issue 21). */
async function refundDeposit(orderExtraId: unknown, user: { token: string; userId: string }): Promise<Response> {
  if (typeof orderExtraId !== 'string' || !UUID.test(orderExtraId)) return json(400, { error: 'invalid_request' });
  const prepared = await rpc<{
    order_id: string;
    back_cents: number;
    payment_intent: string | null;
    refundable_cents: number | null;
    attempt: number;
  }>('prepare_deposit_refund', { p_order_extra_id: orderExtraId }, user.token);
  if (!prepared.ok) return refusal(prepared);
  const { order_id: orderId, back_cents: amount, payment_intent: paymentIntent, attempt } = prepared.data;
  if (amount <= 0 || !paymentIntent) return json(200, { refund_id: null, status: 'nothing_to_refund' });
  const stripe = stripeOrUnavailable();
  if (stripe instanceof Response) return stripe;
  try {
    const refund = await stripe.refunds.create(
      {
        payment_intent: paymentIntent,
        amount,
        metadata: { order_id: orderId, order_extra_id: orderExtraId, deposit_return: 'true', requested_by: user.userId },
      },
      { idempotencyKey: `deposit-${orderExtraId}-${attempt}-${amount}` },
    );
    // Noted before the webhook tells how it ends: until then the desk does not pay the deposit
    // back as well (private.deposit_refund_in_flight).
    const noted = await rpc('note_deposit_refund_requested', { p_order_extra_id: orderExtraId, p_refund_id: refund.id }, 'service_role');
    if (!noted.ok) console.error('refund-payment: could not note the deposit refund', noted.error);
    return json(200, { refund_id: refund.id, status: refund.status });
  } catch (error) {
    const failure = stripeFailure(error);
    if (!failure) throw error;
    console.error('refund-payment: Stripe refused the deposit refund', failure.body);
    // A refusal (4xx but an idempotency conflict) is kept by Stripe under this key: noted, the
    // next attempt asks with a new one. A 502 (Stripe failed or was not reached) is not noted:
    // its retry must reuse the key, as the refund may have been made.
    if (failure.status >= 400 && failure.status < 500 && failure.status !== 409) {
      const noted = await rpc(
        'note_deposit_refund_refused',
        { p_order_extra_id: orderExtraId, p_code: String(failure.body.error ?? 'stripe_error') },
        'service_role',
      );
      if (!noted.ok) console.error('refund-payment: could not note the refusal', noted.error);
    }
    return json(failure.status, failure.body);
  }
}
