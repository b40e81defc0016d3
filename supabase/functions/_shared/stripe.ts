/**
 * The Stripe client of the payment edge functions (create-checkout, refund-payment; the webhook
 * uses only the signature check). `stripe` is mapped by each function's own deno.json to
 * npm:stripe@<the version npm ci installed>; Deno then loads the SDK's worker build (the "deno"
 * export condition), which talks over fetch and verifies signatures with SubtleCrypto.
 *
 * Environment: STRIPE_SECRET_KEY (a secret: `supabase secrets set` on hosted Supabase). Only
 * when STRIPE_API_HOST is set (the local stack points it at its payment sandbox, with
 * STRIPE_API_PORT and STRIPE_API_PROTOCOL) does the client leave api.stripe.com: the same code
 * talks to real Stripe in production.
 */
import Stripe from 'stripe';
import { json } from './api.ts';

export { Stripe };

/** A setting the function cannot work without is missing (answered 503, not 500: no bad input). */
export class NotConfigured extends Error {}

/** The client, or the 503 answer when STRIPE_SECRET_KEY is not set. */
export function stripeOrUnavailable(): Stripe | Response {
  try {
    return stripeClient();
  } catch (error) {
    if (error instanceof NotConfigured) return json(503, { error: 'not_configured' });
    throw error;
  }
}

export function stripeClient(): Stripe {
  const key = Deno.env.get('STRIPE_SECRET_KEY');
  if (!key) throw new NotConfigured('STRIPE_SECRET_KEY is not set');
  const host = Deno.env.get('STRIPE_API_HOST');
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    // Retries of a request reuse its Idempotency-Key (the SDK's own rule), so they are safe.
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(host
      ? {
          host,
          port: Deno.env.get('STRIPE_API_PORT') || undefined,
          protocol: Deno.env.get('STRIPE_API_PROTOCOL') === 'http' ? 'http' : 'https',
        }
      : {}),
  });
}

/** Web Crypto for `webhooks.constructEventAsync` (the edge runtime has no node:crypto HMAC sync path). */
export const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * A Stripe API failure as the function's answer: what the request got wrong (Stripe's 4xx:
 * invalid request, card error, idempotency conflict) is the caller's 4xx with Stripe's error
 * code; what is wrong on Stripe's side or between us (5xx, network, rate limit, our key) is 502.
 */
export function stripeFailure(error: unknown): { status: number; body: Record<string, unknown> } | undefined {
  if (!(error instanceof Stripe.errors.StripeError)) return undefined;
  const code = error.code ?? error.rawType ?? 'stripe_error';
  if (error instanceof Stripe.errors.StripeIdempotencyError)
    return { status: 409, body: { error: 'idempotency_conflict', stripe_code: code } };
  if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError) {
    return {
      status: error.statusCode === 404 ? 404 : error instanceof Stripe.errors.StripeCardError ? 402 : 400,
      body: { error: code, message: error.message },
    };
  }
  return { status: 502, body: { error: 'payment_provider_error', stripe_code: code } };
}
