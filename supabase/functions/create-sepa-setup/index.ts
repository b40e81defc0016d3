/**
 * create-sepa-setup: POST {contract_id} with the holder's token -> {url}, Stripe Checkout in
 * setup mode for a SEPA Direct Debit mandate (docs/adr/0048-seasonal-fees-and-sepa.md).
 *
 * 1. public.begin_sepa_setup as the caller: the database decides whether this account has
 *    direct debit fees under the contract (else 404 fee_not_found) and gives e-mail, language,
 *    reference and the Stripe customer of an earlier mandate.
 * 2. A Stripe Customer for the account (Idempotency-Key customer-<user id>) when there is none:
 *    the payment method must belong to a customer to be charged off-session later.
 * 3. A Checkout Session, mode=setup, allowed_payment_method_types=[sepa_debit], the customer, metadata
 *    {user_id, contract_id} on the session and its SetupIntent (Idempotency-Key
 *    sepa-setup-<contract>-<minute>: a double click gets the same page), success and cancel
 *    URLs on SITE_URL. The webhook stores the mandate when Stripe reports the session complete.
 *
 * Environment: SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, STRIPE_SECRET_KEY
 * (+ STRIPE_API_HOST/PORT/PROTOCOL locally, _shared/stripe.ts), SITE_URL.
 */
import { stripeFailure, stripeOrUnavailable } from '../_shared/stripe.ts';
import { UUID, env, json, refusal, rpc, serve, userRequest } from '../_shared/api.ts';

interface BegunSetup {
  contract_id: string;
  reference: string;
  user_id: string;
  email: string | null;
  name: string | null;
  locale: string;
  customer: string | null;
}

serve(async (req) => {
  const start = await userRequest(req);
  if (start instanceof Response) return start;
  const { user, body } = start;
  const contractId = body?.contract_id;
  if (typeof contractId !== 'string' || !UUID.test(contractId)) return json(400, { error: 'invalid_request' });

  const begun = await rpc<BegunSetup>('begin_sepa_setup', { p_contract_id: contractId }, user.token);
  if (!begun.ok) return refusal(begun);
  const setup = begun.data;
  const site = env('SITE_URL')?.replace(/\/$/, '');
  if (!site) return json(503, { error: 'not_configured' });
  const stripe = stripeOrUnavailable();
  if (stripe instanceof Response) return stripe;

  const locale = setup.locale === 'en' ? 'en' : 'de';
  const metadata = { user_id: setup.user_id, contract_id: setup.contract_id, contract_reference: setup.reference };
  // Back to the page with the contract, where the mandate shows once the webhook stored it.
  const page = `${site}/${locale}/account/long-time-place`;
  try {
    const customer =
      setup.customer ??
      (
        await stripe.customers.create(
          {
            ...(setup.email ? { email: setup.email } : {}),
            ...(setup.name ? { name: setup.name } : {}),
            metadata: { user_id: setup.user_id },
          },
          { idempotencyKey: `customer-${setup.user_id}` },
        )
      ).id;
    const minute = Math.floor(Date.now() / 60_000);
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'setup',
        allowed_payment_method_types: ['sepa_debit'],
        customer,
        locale,
        client_reference_id: setup.contract_id,
        metadata,
        setup_intent_data: { metadata },
        success_url: `${page}?sepa=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${page}?sepa=cancelled`,
      },
      { idempotencyKey: `sepa-setup-${setup.contract_id}-${minute}` },
    );
    return json(200, { url: session.url });
  } catch (error) {
    const failure = stripeFailure(error);
    if (!failure) throw error;
    console.error('create-sepa-setup: Stripe refused', failure.body);
    return json(failure.status, failure.body);
  }
});
