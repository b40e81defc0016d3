/**
 * create-checkout: POST {order_id} with a signed-in user's token (guests book under anonymous
 * auth, so theirs counts) -> {url}, the Stripe Checkout page for the order's gross amount.
 *
 * 1. public.begin_online_payment as the caller: the database decides whether this user may
 *    pay this order now (owner or staff; not paid, cancelled, expired or desk-only) and gives
 *    the amount in cents from the stored price, e-mail, locale, description and the session
 *    still open, if any. Its refusal is answered with its code and 4xx.
 * 2. An open, unexpired session is reused: its URL again, never a second session to pay.
 * 3. Else a Checkout Session (one EUR line of amount_cents, the order id and booking number as
 *    metadata on the session and its payment intent, the guest's e-mail and language, success
 *    and cancel URLs on the app's origin) with an Idempotency-Key for this order and attempt,
 *    so two tabs pressing "pay" at once get the same session.
 * 4. public.record_checkout_session with the service role; then {url}.
 *
 * Environment: SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY (the platform's),
 * STRIPE_SECRET_KEY (+ STRIPE_API_HOST/PORT/PROTOCOL locally, see _shared/stripe.ts), SITE_URL
 * (the app's origin) and optionally ADDITIONAL_REDIRECT_URLS (comma-separated further origins
 * of the app, as config.toml's auth.additional_redirect_urls).
 */
import { stripeFailure, stripeOrUnavailable } from '../_shared/stripe.ts';
import { UUID, env, json, refusal, rpc, serve, userRequest } from '../_shared/api.ts';

interface BegunPayment {
  order_id: string;
  booking_reference: string;
  amount_cents: number;
  currency: string;
  email: string | null;
  locale: string;
  description: string;
  open_session: { id: string; url: string; expires_at: string } | null;
}

/** A URL's origin, or undefined for what is no plain origin (empty, a glob like http://localhost:*). */
function originOf(value: string | undefined): string | undefined {
  if (!value || value.includes('*')) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where Stripe sends the browser back: the request's Origin when it is the app's (SITE_URL or
 * one of ADDITIONAL_REDIRECT_URLS), else SITE_URL. Never an arbitrary Origin: the success URL
 * must not lead a paying guest to someone else's page.
 */
function appOrigin(requestOrigin: string | null): string | undefined {
  const site = originOf(env('SITE_URL'));
  if (!site) return undefined;
  const allowed = new Set([site, ...(env('ADDITIONAL_REDIRECT_URLS') ?? '').split(',').map(originOf).filter(Boolean)]);
  const origin = originOf(requestOrigin ?? undefined);
  return origin && allowed.has(origin) ? origin : site;
}

interface SessionRow {
  id: string;
  url: string;
  status: string;
  amount_cents: number;
  expires_at: string;
}

/** The order's checkout sessions, oldest first, as the caller may read them (RLS: owner or staff). */
async function sessionsOf(orderId: string, token: string): Promise<SessionRow[] | undefined> {
  try {
    const query = `select=id,url,status,amount_cents,expires_at&order_id=eq.${orderId}&order=created_at.asc,id.asc`;
    const res = await fetch(`${env('SUPABASE_URL')!.replace(/\/$/, '')}/rest/v1/checkout_sessions?${query}`, {
      headers: { apikey: env('SUPABASE_ANON_KEY')!, authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(20_000),
    });
    return res.ok ? ((await res.json()) as SessionRow[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The oldest session for this amount still open for more than two minutes (begin_online_payment's rule for reuse). */
const oldestOpen = (rows: SessionRow[], amount: number) =>
  rows.find((r) => r.status === 'open' && r.amount_cents === amount && Date.parse(r.expires_at) > Date.now() + 120_000);

serve(async (req) => {
  const start = await userRequest(req);
  if (start instanceof Response) return start;
  const { user, body } = start;
  const orderId = body?.order_id;
  if (typeof orderId !== 'string' || !UUID.test(orderId)) return json(400, { error: 'invalid_request' });

  const begun = await rpc<BegunPayment>('begin_online_payment', { p_order_id: orderId }, user.token);
  if (!begun.ok) return refusal(begun);
  const order = begun.data;
  if (order.open_session) return json(200, { url: order.open_session.url });
  if (!Number.isSafeInteger(order.amount_cents) || order.amount_cents <= 0) return json(409, { error: 'nothing_to_pay' });

  const site = appOrigin(req.headers.get('origin'));
  if (!site) return json(503, { error: 'not_configured' });
  const stripe = stripeOrUnavailable();
  if (stripe instanceof Response) return stripe;
  const before = await sessionsOf(orderId, user.token);
  if (!before) return json(503, { error: 'database_unavailable' });

  // Stripe accepts expires_at from 30 minutes after creation: a whole minute 31-32 minutes
  // ahead, so that two tabs in the same minute send identical parameters under one key.
  const expiresAt = Math.ceil(Date.now() / 60_000) * 60 + 31 * 60;
  const locale = order.locale === 'en' ? 'en' : 'de';
  const page = `${site}/${locale}/order/${orderId}`;
  const metadata = { order_id: orderId, booking_reference: order.booking_reference };
  let session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: { currency: order.currency || 'eur', unit_amount: order.amount_cents, product_data: { name: order.description } },
          },
        ],
        ...(order.email ? { customer_email: order.email } : {}),
        locale,
        client_reference_id: orderId,
        metadata,
        payment_intent_data: { metadata, description: order.description },
        success_url: `${page}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${page}?payment=cancelled`,
        expires_at: expiresAt,
      },
      { idempotencyKey: `checkout-${orderId}-${before.length + 1}-${expiresAt}` },
    );
  } catch (error) {
    const failure = stripeFailure(error);
    if (!failure) throw error;
    console.error('create-checkout: Stripe refused', failure.body);
    return json(failure.status, failure.body);
  }

  const recorded = await rpc(
    'record_checkout_session',
    {
      p_order_id: orderId,
      p_session_id: session.id,
      p_url: session.url,
      p_amount_cents: order.amount_cents,
      p_expires_at: new Date(session.expires_at * 1000).toISOString(),
    },
    'service_role',
  );
  // 409: the same session, recorded by a parallel call with the same Idempotency-Key.
  if (!recorded.ok && recorded.status !== 409) {
    // A session the database does not know must not be paid: close it (best effort).
    await stripe.checkout.sessions.expire(session.id).catch(() => {});
    return refusal(recorded);
  }
  // Two calls that raced past the reuse check with different keys (a minute apart) made two
  // sessions: the first recorded one is the order's; a later one is closed before anyone sees it.
  const first = oldestOpen((await sessionsOf(orderId, user.token)) ?? [], order.amount_cents);
  if (first && first.id !== session.id) {
    await stripe.checkout.sessions.expire(session.id).catch(() => {});
    return json(200, { url: first.url });
  }
  return json(200, { url: session.url });
});
