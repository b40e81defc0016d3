/**
 * stripe-webhook: Stripe's events (`verify_jwt = false` in config.toml: Stripe sends no
 * Supabase token; the Stripe-Signature header is the authentication).
 *
 * The raw body is verified with the SDK (`webhooks.constructEventAsync`, HMAC-SHA256 with
 * STRIPE_WEBHOOK_SECRET, timestamp tolerance 300 s): a missing, forged or stale signature is
 * 400 and nothing is recorded. A verified event of a type this project handles goes to
 * public.record_stripe_event with the service role, which is idempotent by event id and
 * indifferent to the order of arrival; other types are acknowledged and dropped.
 *
 * Answers: 200 {received: true} (also for ignored types and replays), 400 bad signature or
 * body, 422 {error} an event the database refuses (Stripe shows it failed and retries it),
 * 503 when the database cannot be reached or the secret is not set (Stripe retries with
 * backoff), never 500.
 *
 * Environment: STRIPE_WEBHOOK_SECRET (`whsec_…`), SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY.
 */
import { Stripe, cryptoProvider, stripeClient } from '../_shared/stripe.ts';
import { env, json, refusalCode, rpc, serve } from '../_shared/api.ts';

/** The events to send to this endpoint (README: register exactly these). */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'refund.created',
  'refund.updated',
  // A card refund that fails later also comes as refund.updated; either one reverses it.
  'refund.failed',
  // Long-term fees by SEPA direct debit (ADR 0048): the debit on its way, and a return after success.
  'payment_intent.processing',
  'charge.dispute.created',
]);

const TOLERANCE_SECONDS = 300;

/**
 * The mandate of a completed setup session (create-sepa-setup): the SetupIntent with its
 * mandate and payment method expanded, to public.record_sepa_mandate (idempotent by the
 * mandate id, so a redelivered event stores nothing twice). Anything that fails here is 503:
 * Stripe delivers the event again.
 */
async function storeMandate(session: Stripe.Checkout.Session): Promise<Response> {
  const setupIntentId = typeof session.setup_intent === 'string' ? session.setup_intent : session.setup_intent?.id;
  const userId = session.metadata?.user_id;
  if (!setupIntentId || !userId) return json(200, { received: true, ignored: 'no_setup_intent' });
  let intent: Stripe.SetupIntent;
  try {
    intent = await stripeClient().setupIntents.retrieve(setupIntentId, { expand: ['mandate', 'payment_method'] });
  } catch (error) {
    console.error('stripe-webhook: could not read the SetupIntent', error instanceof Error ? error.message : error);
    return json(503, { error: 'payment_provider_error' });
  }
  const mandate = typeof intent.mandate === 'object' ? intent.mandate : null;
  const method = typeof intent.payment_method === 'object' ? intent.payment_method : null;
  if (!mandate || !method?.sepa_debit) return json(200, { received: true, ignored: 'no_sepa_mandate' });
  const stored = await rpc(
    'record_sepa_mandate',
    {
      p_mandate: {
        user_id: userId,
        contract_id: session.metadata?.contract_id ?? null,
        customer: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null),
        payment_method: method.id,
        mandate: mandate.id,
        reference: mandate.payment_method_details?.sepa_debit?.reference,
        last4: method.sepa_debit.last4,
        country: method.sepa_debit.country,
        customer_acceptance: mandate.customer_acceptance,
        status: mandate.status,
      },
    },
    'service_role',
  );
  if (stored.ok) return json(200, { received: true });
  if (stored.status >= 500 || [401, 403].includes(stored.status)) return json(503, { error: 'database_unavailable' });
  console.error('stripe-webhook: mandate refused', stored.error);
  return json(422, { error: refusalCode(stored.error) });
}

serve(async (req) => {
  if (req.method !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'POST' });
  const secret = env('STRIPE_WEBHOOK_SECRET');
  if (!secret) {
    console.error('stripe-webhook: STRIPE_WEBHOOK_SECRET is not set');
    return json(503, { error: 'not_configured' });
  }
  const signature = req.headers.get('stripe-signature');
  if (!signature) return json(400, { error: 'missing_signature' });
  // The bytes as sent: the signature covers them exactly.
  const payload = new Uint8Array(await req.arrayBuffer());
  let event;
  try {
    event = await Stripe.webhooks.constructEventAsync(payload, signature, secret, TOLERANCE_SECONDS, cryptoProvider);
  } catch (error) {
    const bad = error instanceof Stripe.errors.StripeSignatureVerificationError;
    console.warn(`stripe-webhook: refused a request with ${bad ? 'a bad or stale signature' : 'a body that is no event'}`);
    return json(400, { error: bad ? 'invalid_signature' : 'invalid_payload' });
  }
  if (!HANDLED_EVENTS.has(event.type)) return json(200, { received: true, ignored: event.type });

  const recorded = await rpc('record_stripe_event', { p_event: event }, 'service_role');
  if (recorded.ok) {
    // A SEPA mandate set up for long-term fees (Checkout in setup mode): stored from its SetupIntent.
    if (event.type === 'checkout.session.completed' && event.data.object.mode === 'setup') return await storeMandate(event.data.object);
    return json(200, { received: true });
  }
  // Refused for the service role itself (401/403) or the function not deployed yet (PGRST202):
  // a fault of this installation, not of the event; Stripe retries once it is fixed.
  if (recorded.status >= 500 || recorded.status < 400 || [401, 403].includes(recorded.status) || recorded.error.code === 'PGRST202') {
    console.error('stripe-webhook: database unavailable', recorded.status, recorded.error);
    return json(503, { error: 'database_unavailable' });
  }
  console.error(`stripe-webhook: ${event.id} (${event.type}) refused`, recorded.error);
  return json(422, { error: refusalCode(recorded.error) });
});
