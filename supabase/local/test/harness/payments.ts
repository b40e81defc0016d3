/**
 * Online payment against a running stack, shared by the payment functions' API tests and the
 * `payments` benchmark: edge function calls as supabase-js' functions.invoke sends them, a
 * guest's booking through the REST API as the app makes it, and paying on the payment
 * sandbox's checkout page with a form post as a browser does.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Stack } from '../../src/stack.ts';

/** What the stack puts into the functions' environment for its sandbox (the payment contract's values). */
export const SANDBOX_SECRET_KEY = 'sk_test_local_sandbox';
export const SANDBOX_WEBHOOK_SECRET = 'whsec_local_sandbox';

export const clientOptions = { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as never } };

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A call of an edge function through the stack's gateway; `token: null` sends no Authorization. */
export async function callFunction(
  stack: Stack,
  name: string,
  options: { token?: string | null; body?: unknown; method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { apikey: stack.keys.anonKey, ...options.headers };
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? stack.keys.anonKey}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${stack.url}/functions/v1/${name}`, {
    method: options.method ?? 'POST',
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: res.status, body: { text } };
  }
}

/** A Europe/Berlin calendar day `offset` days from today (YYYY-MM-DD). */
export function berlinDay(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

export interface GuestOrder {
  client: SupabaseClient;
  token: string;
  userId: string;
  orderId: string;
  email: string;
  priceCents: number;
  /** quote_booking's gross for the same stay and boat, asked before booking. */
  quoteCents: number;
}

/**
 * A guest (an anonymous session, as the booking flow starts one) books two nights from
 * `arrivalOffset` days ahead for a 9.4 m boat in `locale`, through the REST API as the app does.
 */
export async function guestOrder(stack: Stack, arrivalOffset: number, locale: 'de' | 'en' = 'de'): Promise<GuestOrder> {
  const client = createClient(stack.url, stack.keys.anonKey, clientOptions);
  const { data, error } = await client.auth.signInAnonymously({ options: { data: { locale } } });
  if (error) throw error;
  const stay = { p_kind: 'overnight', p_arrival: berlinDay(arrivalOffset), p_departure: berlinDay(arrivalOffset + 2) };
  const search = await client.rpc('search_available_places', { ...stay, p_boat_length: 9.4, p_boat_width: 3.2 });
  if (search.error) throw search.error;
  const quote = await client.rpc('quote_booking', { ...stay, p_boat_length: 9.4 });
  if (quote.error) throw quote.error;
  const email = `gast-${data.user!.id.slice(0, 8)}@example.org`;
  const booked = await client.rpc('create_booking', {
    ...stay,
    p_place_id: search.data[0].place_id,
    p_boat: { name: 'Rheinperle', length: 9.4, width: 3.2 },
    p_person: { first_name: 'Gerd', last_name: 'Gast', email, country: 'DE', locale },
  });
  if (booked.error) throw booked.error;
  return {
    client,
    token: data.session!.access_token,
    userId: data.user!.id,
    orderId: booked.data.id,
    email,
    priceCents: booked.data.price_cents,
    quoteCents: quote.data.gross_cents,
  };
}

/** The checkout session id in a sandbox checkout URL (`<paymentsUrl>/pay/<id>`). */
export const sessionIdOf = (url: string) => /\/pay\/(cs_\w+)$/.exec(new URL(url).pathname)?.[1] ?? '';

/**
 * Pays on the sandbox's checkout page as a browser does: loads the page, fills its form's card
 * fields (number, exp, cvc, name; what else the form holds is sent as it is) and posts it as
 * application/x-www-form-urlencoded. Answers where the page sends the browser next (the success
 * URL with a 303, or the page again with a message).
 */
export async function payOnSandbox(
  url: string,
  card = '4242 4242 4242 4242',
): Promise<{ status: number; location: string | null; html: string }> {
  const page = await fetch(url);
  const html = await page.text();
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (page.status !== 200 || !form) throw new Error(`no checkout form at ${url} (HTTP ${page.status})`);
  const action = /\baction="([^"]*)"/i.exec(form[0])?.[1]?.replace(/&amp;/g, '&') ?? url;
  const typed: Record<string, string> = { number: card, exp: '12 / 34', cvc: '123', name: 'Gerd Gast' };
  const fields = new URLSearchParams();
  for (const [input] of form[1].matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]+)"/i.exec(input)?.[1];
    if (name) fields.set(name, typed[name] ?? /\bvalue="([^"]*)"/i.exec(input)?.[1] ?? '');
  }
  const res = await fetch(new URL(action, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** Polls `read` until `done` holds (or the time is up) and answers the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await read();
  }
  return value;
}
