/**
 * Helpers of the online payment browser tests (issue 20): paying on the payment sandbox's hosted
 * checkout page with Stripe's test cards, the same through its form without a browser (for tests
 * that need an order paid online before they start), REST calls, and waiting for the receipt.
 */
import { expect as baseExpect, type Page } from '@playwright/test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, berlinDay, mailUrl } from './booking-helpers.ts';

const expect = baseExpect.configure({ timeout: 15_000 });

/** Stripe's documented test cards, as the sandbox knows them. */
export const cards = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  threeDSecure: '4000 0025 0000 3155',
  /** Pays; a refund of it succeeds, then fails two seconds later (Stripe's test card). */
  refundFails: '4000 0000 0000 5126',
} as const;

const sandboxWords = {
  de: {
    card: 'Kartennummer',
    exp: 'Ablaufdatum (MM / JJ)',
    cvc: 'Prüfnummer (CVC)',
    name: 'Name auf der Karte',
    pay: /^Bezahlen /,
    back: /Zurück/,
    declined: 'Ihre Karte wurde abgelehnt.',
    authComplete: 'Authentifizierung abschließen',
  },
  en: {
    card: 'Card number',
    exp: 'Expiry date (MM / YY)',
    cvc: 'Security code (CVC)',
    name: 'Name on card',
    pay: /^Pay /,
    back: /Back/,
    declined: 'Your card was declined.',
    authComplete: 'Complete authentication',
  },
};
export const sandboxText = (locale: 'de' | 'en') => sandboxWords[locale];

/** On the sandbox's checkout page: types a card and presses "pay". */
export async function payOnSandbox(page: Page, locale: 'de' | 'en', card: string, name = 'Greta Gast') {
  const w = sandboxWords[locale];
  await expect(page.getByLabel(w.card)).toBeVisible();
  await page.getByLabel(w.card).fill(card);
  await page.getByLabel(w.exp).fill('12 / 34');
  await page.getByLabel(w.cvc).fill('123');
  await page.getByLabel(w.name).fill(name);
  await page.getByRole('button', { name: w.pay }).click();
}

export async function rest<T>(
  path: string,
  token: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data: data as T };
}

export const rpc = <T>(name: string, body: Record<string, unknown>, token: string) =>
  rest<T>(`rest/v1/rpc/${name}`, token, { method: 'POST', body });

/** The order's payment status as its owner or staff read it. */
export async function paymentStatus(orderId: string, token: string): Promise<string | undefined> {
  const res = await rest<{ payment_status: string }[]>(`rest/v1/orders?id=eq.${orderId}&select=payment_status`, token);
  return res.data[0]?.payment_status;
}

/** Books an overnight stay for the token's user on the first berth still free (another suite may take one meanwhile). */
export async function bookViaApi(
  token: string,
  opts: { boat: string; day: number; nights?: number; last: string },
): Promise<{ id: string; price_cents: number; place: string }> {
  const arrival = berlinDay(opts.day);
  const departure = berlinDay(opts.day + (opts.nights ?? 1));
  const free = await rpc<{ place_id: string; name: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 6, p_boat_width: 2.4 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(0, 10)) {
    const booked = await rpc<{ id: string; price_cents: number }>(
      'create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: opts.boat, length: 6, width: 2.4 },
        p_person: { first_name: 'Paula', last_name: opts.last },
      },
      token,
    );
    if (booked.status === 200) return { ...booked.data, place: place.name };
    expect(booked.status, JSON.stringify(booked.data)).toBe(409);
  }
  throw new Error('no free berth');
}

/**
 * Pays the order online without a browser, as a guest's browser would: create-checkout with the
 * owner's token, then the sandbox's checkout form with the card (the sandbox then redirects to
 * the app and sends Stripe's events to the webhook). Waits until the order is paid.
 */
export async function payViaApi(orderId: string, token: string, card: string = cards.success): Promise<string> {
  const started = await rest<{ url: string }>('functions/v1/create-checkout', token, { method: 'POST', body: { order_id: orderId } });
  expect(started.status, JSON.stringify(started.data)).toBe(200);
  const url = started.data.url;
  const form = new URLSearchParams({ number: card.replace(/\s/g, ''), exp: '12/34', cvc: '123', name: 'Paula Probe' });
  const paid = await fetch(url, { method: 'POST', body: form, redirect: 'manual' });
  expect(paid.status, await paid.clone().text()).toBeGreaterThanOrEqual(300);
  expect(paid.headers.get('location')).toContain('payment=success');
  await expect.poll(() => paymentStatus(orderId, token), { timeout: 30_000 }).toBe('paid');
  return url;
}

/** A message in the mail catcher (attachments base64). */
export interface CaughtMail {
  subject: string;
  text?: string;
  html?: string;
  attachments?: { filename: string; contentType: string; content: string }[];
}

/** The newest mail to `to` after `since` whose subject matches, waiting up to `timeout` ms. */

export async function waitForMail(to: string, since: string, subject: RegExp, timeout = 30_000): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${mailUrl}/api/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as (CaughtMail & { date: string })[];
        found = list.find((m) => subject.test(m.subject) && m.date > since);
        return found?.subject ?? null;
      },
      { timeout, message: `a mail to ${to} with a subject like ${subject}` },
    )
    .not.toBeNull();
  return found!;
}

/**
 * The console errors minus one the sandbox's checkout page causes by design: it answers a
 * declined card with HTTP 402 (Stripe's status for a card error), which Chromium logs for that
 * page. Everything else, and every error of the app, stays.
 */
export const withoutDeclineStatus = (errors: string[]) =>
  errors.filter(
    (e) =>
      !/^Failed to load resource: the server responded with a status of 402 \(Payment Required\) @ http:\/\/127\.0\.0\.1:\d+\/pay\/cs_\w+$/.test(
        e,
      ),
  );
