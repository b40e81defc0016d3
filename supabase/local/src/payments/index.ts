import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../context.ts';
import { HttpError, readBody } from '../http.ts';
import { ibanProblem, isSepaIban } from '../../../../src/lib/iban.ts';
import {
  confirmPaymentIntent,
  createCustomer,
  createPaymentIntent,
  createPaymentMethod,
  createRefund,
  createSession,
  expand,
  expireSession,
  type ApiContext,
} from './api.ts';
import { luhnValid } from './cards.ts';
import { API_VERSION, newId } from './objects.ts';
import {
  authenticationPage,
  checkoutPage,
  declineMessage,
  mandatePage,
  notFoundPage,
  pageLocale,
  setupPage,
  type CheckoutView,
  type SetupView,
} from './page.ts';
import { StripeError, noSuch, parseParams, type Params } from './params.ts';
import { PaymentStore } from './state.ts';
import { WebhookSender } from './webhooks.ts';

/** The keys of the sandbox, as the edge functions get them (never valid at Stripe). */
export const SANDBOX_SECRET_KEY = 'sk_test_local_sandbox';
export const SANDBOX_WEBHOOK_SECRET = 'whsec_local_sandbox';
/** Where the stack's sandbox delivers events: the app's webhook function. */
export const WEBHOOK_PATH = '/functions/v1/stripe-webhook';

export interface PaymentSandboxOptions {
  host: string;
  port: number;
  /** A JSON file that keeps the state across restarts; none = memory only. */
  stateFile?: string;
  /** Shown on the checkout page as the merchant (Stripe shows the account's business name). */
  merchantName: string;
  /** The sandbox's clock in ms (tests move it to pass `expires_at`); default Date.now. */
  now?: () => number;
  /** Pauses between webhook attempts (default 1, 2, 4 … 64 s: eight attempts). */
  retryDelaysMs?: number[];
  /** Where events go from the start (the stack sets it with setWebhookUrl once it listens). */
  webhookUrl?: string;
  /**
   * How long a POST with an Idempotency-Key runs before its answer is saved (default 0: one turn
   * of the event loop). Meanwhile another request with that key is answered 409
   * idempotency_key_in_use, as Stripe answers a request that conflicts with one still executing.
   */
  idempotentRunMs?: number;
  /**
   * How long a SEPA debit stays `processing` before the bank's answer, on the sandbox's clock
   * (default: PAYMENT_SANDBOX_SEPA_PENDING_MS from the environment, else 3000). The delayed test
   * IBANs wait at least three minutes, as Stripe documents. Tests pass `now` and move it.
   */
  sepaPendingMs?: number;
  log?: Logger;
}

export interface PaymentSandbox {
  url: string;
  port: number;
  store: PaymentStore;
  setWebhookUrl(url: string): void;
  close(): Promise<void>;
}

/**
 * What the edge functions get so that the `stripe` SDK talks to the sandbox (see
 * supabase/functions/_shared/stripe.ts): nothing when functions/.env names a real
 * STRIPE_SECRET_KEY, so that key reaches real Stripe.
 */
export function stripeEnvironment(env: Record<string, string>, paymentsPort: number | undefined): Record<string, string> {
  if (!paymentsPort || env.STRIPE_SECRET_KEY) return {};
  return {
    STRIPE_SECRET_KEY: SANDBOX_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: SANDBOX_WEBHOOK_SECRET,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(paymentsPort),
    STRIPE_API_PROTOCOL: 'http',
  };
}

const silent: Logger = { info() {}, warn() {}, error() {} };

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body, null, 2));
}

function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, 'cache-control': 'no-store' });
  res.end();
}

function apiKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic) return Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0];
  return undefined;
}

const masked = (key: string) => (key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key);

/** Card fields of the page, checked as Stripe's checkout checks them before it asks the bank. */
function readCard(form: URLSearchParams, needsEmail: boolean, now: Date) {
  const errors: NonNullable<CheckoutView['errors']> = {};
  const digits = (form.get('number') ?? '').replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits) || digits.length < 12) errors.number = 'numberIncomplete';
  else if (digits.length > 19 || !luhnValid(digits)) errors.number = 'numberInvalid';
  const exp = (form.get('exp') ?? '').trim();
  const m = /^(\d{1,2})\s*\/?\s*(\d{2}|\d{4})$/.exec(exp);
  let expMonth = 0;
  let expYear = 0;
  if (!m) errors.exp = 'expiryIncomplete';
  else {
    expMonth = Number(m[1]);
    expYear = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    if (expMonth < 1 || expMonth > 12) errors.exp = 'expiryMonthInvalid';
    else if (expYear * 12 + expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) errors.exp = 'expiryPast';
  }
  const cvc = (form.get('cvc') ?? '').trim();
  const cvcLength = /^3[47]/.test(digits) ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(cvc)) errors.cvc = 'cvcIncomplete';
  const name = (form.get('name') ?? '').trim().slice(0, 200);
  if (!name) errors.name = 'nameMissing';
  const email = (form.get('email') ?? '').trim();
  if (needsEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'emailInvalid';
  return { errors, card: { digits, expMonth, expYear, name, email }, values: { name, email, exp } };
}

/**
 * A Stripe-compatible server for the local stack (as the mail catcher stands in for a mail
 * server): the Checkout API subset, the hosted checkout page with Stripe's test cards, and
 * signed webhook events with retries. GET /__sandbox/events lists the deliveries (read-only).
 */
export async function startPaymentSandbox(options: PaymentSandboxOptions): Promise<PaymentSandbox> {
  const log = options.log ?? silent;
  const envPending = Number(process.env.PAYMENT_SANDBOX_SEPA_PENDING_MS);
  const sepaPendingMs = options.sepaPendingMs ?? (Number.isFinite(envPending) && envPending >= 0 ? envPending : 3000);
  const store = new PaymentStore(options.stateFile, options.now, (m) => log.warn(m), sepaPendingMs);
  const sender = new WebhookSender(store, { secret: SANDBOX_WEBHOOK_SECRET, retryDelaysMs: options.retryDelaysMs, log });
  let baseUrl = '';
  /** Idempotency-Keys whose first request is still running (Stripe: 409 idempotency_key_in_use). */
  const running = new Set<string>();

  const view = (sessionId: string, req: IncomingMessage, extra: Partial<CheckoutView> = {}): CheckoutView => {
    const session = store.session(sessionId);
    return {
      session,
      lineItems: store.sessionData(sessionId).lineItems,
      merchant: options.merchantName,
      locale: pageLocale(session.locale, req.headers['accept-language']),
      ...extra,
    };
  };

  const afterPayment = (sessionId: string) => {
    const session = store.session(sessionId);
    const target = session.success_url?.replaceAll('{CHECKOUT_SESSION_ID}', session.id).replaceAll('%7BCHECKOUT_SESSION_ID%7D', session.id);
    return target ?? `/pay/${session.id}`;
  };

  async function page(req: IncomingMessage, res: ServerResponse, sessionId: string, action: string | undefined) {
    try {
      store.session(sessionId);
    } catch {
      return sendHtml(res, 404, notFoundPage(pageLocale(null, req.headers['accept-language'])));
    }
    const form = req.method === 'POST' ? new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8')) : undefined;
    if (store.session(sessionId).mode === 'setup') return setup(req, res, sessionId, form);
    if (action === 'authenticate') {
      const session = store.session(sessionId);
      const intent = session.payment_intent ? store.paymentIntent(session.payment_intent as string) : undefined;
      if (!form) {
        if (session.status === 'open' && intent?.status === 'requires_action')
          return sendHtml(res, 200, authenticationPage(view(sessionId, req)));
        return redirect(res, `/pay/${sessionId}`);
      }
      const result = store.authenticate(sessionId, form.get('outcome') === 'complete');
      if (result.kind === 'paid') return redirect(res, afterPayment(sessionId));
      if (result.kind === 'declined' && result.code === 'payment_intent_authentication_failure')
        return redirect(res, `/pay/${sessionId}?error=authentication_failed`);
      return redirect(res, `/pay/${sessionId}`);
    }
    if (!form) {
      const failed = new URL(req.url ?? '/', 'http://x').searchParams.get('error') === 'authentication_failed';
      const current = view(sessionId, req);
      return sendHtml(res, 200, checkoutPage(failed && current.session.status === 'open' ? { ...current, alert: 'authFailed' } : current));
    }
    const before = store.session(sessionId);
    if (before.status !== 'open') return sendHtml(res, 409, checkoutPage(view(sessionId, req)));
    const { errors, card, values } = readCard(form, !before.customer_email, new Date(store.now()));
    if (Object.keys(errors).length > 0) return sendHtml(res, 400, checkoutPage(view(sessionId, req, { errors, values })));
    const result = store.pay(sessionId, card);
    if (result.kind === 'paid') return redirect(res, afterPayment(sessionId));
    if (result.kind === 'authenticate') return redirect(res, `/pay/${sessionId}/authenticate`);
    if (result.kind === 'closed') return sendHtml(res, 409, checkoutPage(view(sessionId, req)));
    return sendHtml(res, 402, checkoutPage(view(sessionId, req, { alert: declineMessage(result.code, result.declineCode), values })));
  }

  /** The hosted page in setup mode (sepa_debit): checks as Stripe's IBAN field does, then the mandate. */
  function setup(req: IncomingMessage, res: ServerResponse, sessionId: string, form: URLSearchParams | undefined) {
    const session = store.session(sessionId);
    const locale = pageLocale(session.locale, req.headers['accept-language']);
    const setupView = (extra: Partial<SetupView> = {}): SetupView => ({
      session: store.session(sessionId),
      merchant: options.merchantName,
      locale,
      ...extra,
    });
    if (!form) return sendHtml(res, 200, setupPage(setupView()));
    if (session.status !== 'open') return sendHtml(res, 409, setupPage(setupView()));
    const errors: NonNullable<SetupView['errors']> = {};
    const name = (form.get('name') ?? '').trim().slice(0, 200);
    const email = session.customer_email ?? (form.get('email') ?? '').trim();
    const iban = (form.get('iban') ?? '').trim().slice(0, 64);
    if (!name) errors.name = 'holderMissing';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = 'emailInvalid';
    const problem = ibanProblem(iban);
    if (problem === 'incomplete') errors.iban = 'ibanIncomplete';
    else if (problem === 'country' || (problem === null && !isSepaIban(iban))) errors.iban = 'ibanCountry';
    else if (problem === 'invalid') errors.iban = 'ibanInvalid';
    if (form.get('mandate') !== 'accepted') errors.mandate = 'mandateRequired';
    if (Object.keys(errors).length > 0)
      return sendHtml(res, 400, setupPage(setupView({ errors, values: { name, email: session.customer_email ? '' : email, iban } })));
    const forwarded = (req.headers['x-forwarded-for'] as string | undefined)?.split(',')[0]?.trim();
    const result = store.completeSetup(sessionId, {
      name,
      email,
      iban,
      ipAddress: forwarded || req.socket.remoteAddress || null,
      userAgent: (req.headers['user-agent'] as string | undefined) ?? null,
      baseUrl,
    });
    if (result.kind === 'closed') return sendHtml(res, 409, setupPage(setupView()));
    return redirect(res, afterPayment(sessionId));
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const requestId = newId('req', 14);
    const headers = { 'request-id': requestId, 'stripe-version': (req.headers['stripe-version'] as string | undefined) ?? API_VERSION };
    const key = apiKey(req);
    if (!key) {
      throw new StripeError(
        401,
        'invalid_request_error',
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
      );
    }
    if (key !== SANDBOX_SECRET_KEY) throw new StripeError(401, 'invalid_request_error', `Invalid API Key provided: ${masked(key)}`);

    const raw = req.method === 'POST' ? (await readBody(req, 1024 * 1024)).toString('utf8') : query.toString();
    const params: Params = parseParams(raw);
    const idempotencyKey = req.method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    const hash = createHash('sha256').update(raw).digest('hex');
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length > 255)
        throw new StripeError(
          400,
          'invalid_request_error',
          'Idempotency keys can be no longer than 255 characters.',
          undefined,
          'Idempotency-Key',
        );
      const previous = store.idempotent(idempotencyKey);
      if (previous) {
        if (previous.method !== req.method || previous.path !== path || previous.hash !== hash) {
          throw new StripeError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          );
        }
        return sendJson(res, previous.status, previous.body, {
          ...headers,
          'idempotency-key': idempotencyKey,
          'idempotent-replayed': 'true',
        });
      }
    }
    const ctx: ApiContext = { store, baseUrl, request: { id: requestId, idempotency_key: idempotencyKey ?? null } };
    if (idempotencyKey === undefined) return sendJson(res, 200, route(ctx, req.method ?? 'GET', path, params), headers);
    // A second request with a key whose first is still running is refused, not run or replayed:
    // Stripe saves nothing for it, and the caller retries (https://docs.stripe.com/error-codes).
    if (running.has(idempotencyKey)) {
      throw new StripeError(
        409,
        'invalid_request_error',
        `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`,
        'idempotency_key_in_use',
      );
    }
    running.add(idempotencyKey);
    try {
      await new Promise((done) => (options.idempotentRunMs ? setTimeout(done, options.idempotentRunMs) : setImmediate(done)));
      const body = route(ctx, req.method ?? 'POST', path, params);
      // As at Stripe, only a request that ran is remembered: one refused by validation is not.
      store.remember(idempotencyKey, { method: req.method ?? 'POST', path, hash, status: 200, body });
      sendJson(res, 200, body, { ...headers, 'idempotency-key': idempotencyKey });
    } finally {
      running.delete(idempotencyKey);
    }
  }

  function route(ctx: ApiContext, method: string, path: string, params: Params): unknown {
    store.sweep();
    let m: RegExpExecArray | null;
    if (path === '/v1/checkout/sessions' && method === 'POST') return expand(store, createSession(ctx, params), params);
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.session(m[1]), params);
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === 'POST')
      return expand(store, expireSession(ctx, m[1], params), params);
    if ((m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.paymentIntent(m[1]), params);
    if (path === '/v1/payment_intents' && method === 'POST') return expand(store, createPaymentIntent(ctx, params), params);
    if ((m = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path)) && method === 'POST')
      return expand(store, confirmPaymentIntent(ctx, m[1], params), params);
    if (path === '/v1/customers' && method === 'POST') return expand(store, createCustomer(ctx, params), params);
    if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.customer(m[1]), params);
    if (path === '/v1/payment_methods' && method === 'POST') return expand(store, createPaymentMethod(ctx, params), params);
    if ((m = /^\/v1\/payment_methods\/([^/]+)$/.exec(path)) && method === 'GET')
      return expand(store, store.paymentMethod(m[1], 'id'), params);
    if ((m = /^\/v1\/setup_intents\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.setupIntent(m[1]), params);
    if ((m = /^\/v1\/mandates\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.mandate(m[1]), params);
    if ((m = /^\/v1\/disputes\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.dispute(m[1]), params);
    if ((m = /^\/v1\/charges\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.charge(m[1]), params);
    if (path === '/v1/refunds' && method === 'POST') return expand(store, createRefund(ctx, params), params);
    if ((m = /^\/v1\/refunds\/([^/]+)$/.exec(path)) && method === 'GET') return expand(store, store.refund(m[1]), params);
    if ((m = /^\/v1\/events\/([^/]+)$/.exec(path)) && method === 'GET') {
      const event = store.event(m[1]);
      if (!event) throw noSuch('event', m[1]);
      return expand(store, event, params);
    }
    throw new StripeError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path}). The local payment sandbox supports only a subset of Stripe's API.`,
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handle = async () => {
      if (url.pathname.startsWith('/v1/')) return api(req, res, url.pathname, url.searchParams);
      const pay = /^\/pay\/([A-Za-z0-9_]+)(?:\/(authenticate))?$/.exec(url.pathname);
      if (pay && (req.method === 'GET' || req.method === 'POST')) return page(req, res, pay[1], pay[2]);
      const mandateMatch = /^\/mandates\/(mandate_[A-Za-z0-9]+)$/.exec(url.pathname);
      if (mandateMatch && req.method === 'GET') {
        const locale = pageLocale(null, req.headers['accept-language']);
        let mandate;
        try {
          mandate = store.mandate(mandateMatch[1]);
        } catch {
          return sendHtml(res, 404, notFoundPage(locale));
        }
        const pm = store.paymentMethod(mandate.payment_method as string);
        return sendHtml(
          res,
          200,
          mandatePage(locale, options.merchantName, {
            reference: mandate.payment_method_details.sepa_debit!.reference,
            acceptedAt: mandate.customer_acceptance.accepted_at ?? 0,
            status: mandate.status,
            last4: pm.sepa_debit?.last4 ?? '',
            name: pm.billing_details.name,
          }),
        );
      }
      if (url.pathname === '/__sandbox/events' && req.method === 'GET') {
        store.sweep();
        const type = url.searchParams.get('type');
        const data = store
          .deliveries()
          .filter((d) => !type || d.type === type)
          .map((d) => ({ ...d, endpoint: sender.endpoint ?? null, event: store.event(d.event) }));
        return sendJson(res, 200, { object: 'list', data });
      }
      if (url.pathname === '/' && req.method === 'GET') {
        return sendHtml(
          res,
          200,
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>Payment sandbox</title><p>Local payment sandbox (Stripe test mode): API at <code>${baseUrl}/v1</code>, webhook deliveries at <a href="/__sandbox/events">/__sandbox/events</a>.</p></html>`,
        );
      }
      throw noSuch('resource', url.pathname);
    };
    handle().catch((error) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof StripeError) return sendJson(res, error.status, error.body);
      if (error instanceof HttpError)
        return sendJson(res, error.status, { error: { type: 'invalid_request_error', message: error.message } });
      log.error(`payment sandbox: ${req.method} ${url.pathname}: ${(error as Error).stack ?? error}`);
      sendJson(res, 500, { error: { type: 'api_error', message: 'An unexpected error occurred in the local payment sandbox.' } });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${options.host}:${port}`;
  if (options.webhookUrl) sender.setUrl(options.webhookUrl);
  // Sessions past `expires_at` expire (and send checkout.session.expired) without anyone asking.
  const sweeper = setInterval(() => store.sweep(), 1000);
  sweeper.unref();

  return {
    url: baseUrl,
    port,
    store,
    setWebhookUrl: (url) => sender.setUrl(url),
    async close() {
      clearInterval(sweeper);
      sender.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
