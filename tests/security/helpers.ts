/**
 * Shared pieces of the black-box security suites (issue 13, item 4): a stack over the real
 * project (migrations + demo seed) on either engine, the seeded personas signed in through
 * supabase-js exactly as the app does, and raw HTTP for what a client library would not send.
 */
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { EngineName } from '../../supabase/local/test/harness/engines.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import { signInWithPassword } from '../../supabase/local/test/harness/demo-staff.ts';

export type PersonaName = 'anon' | 'guest' | 'customer' | 'other' | 'staff' | 'admin';
export const PERSONAS: PersonaName[] = ['anon', 'guest', 'customer', 'other', 'staff', 'admin'];

/** Seeded users (supabase/seed.sql). */
export const SEED = {
  admin: { id: 'a0000000-0000-4000-8000-000000000001', email: 'admin@hafen.test', password: 'Admin1234' },
  staff: { id: 'a0000000-0000-4000-8000-000000000002', email: 'hafen@hafen.test', password: 'Hafen1234' },
  customer: { id: 'a0000000-0000-4000-8000-000000000003', email: 'kunde@hafen.test', password: 'Kunde1234' },
  /** anna: an active long-term holder (berth C05) */
  other: { id: 'a0000000-0000-4000-8000-000000000004', email: 'anna.schmidt@hafen.test', password: 'Kunde1234' },
  /** jan: checked in since yesterday (and a long-term holder from next season on) */
  futureHolder: { id: 'a0000000-0000-4000-8000-000000000005', email: 'jan.devries@hafen.test', password: 'Kunde1234' },
  lisa: { id: 'a0000000-0000-4000-8000-000000000006', email: 'lisa.meyer@hafen.test', password: 'Kunde1234' },
  inactive: { id: 'a0000000-0000-4000-8000-000000000007', email: 'inaktiv@hafen.test', password: 'Kunde1234' },
  seededGuest: { id: 'a0000000-0000-4000-8000-0000000000a1' },
} as const;

export interface Persona {
  name: PersonaName;
  client: SupabaseClient;
  /** The bearer sent to the APIs (the anon key for anon). */
  token: string;
  userId: string | null;
}

const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};

export const berlinDay = (offsetDays = 0) =>
  new Date(Date.now() + offsetDays * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

/**
 * `trustLocalProxy`: the test process plays a trusted proxy in front of the stack ([api]
 * trusted_proxies = 127.0.0.1 and ::1), so a test names each client's address in
 * X-Forwarded-For; by default (as config.toml) no proxy is trusted and the address is the
 * socket's peer.
 */
export function startSecurityStack(engine: EngineName, options: { trustLocalProxy?: boolean } = {}): Promise<Stack> {
  // Per-IP auth limits stay as config.toml has them: the brute-force suite relies on them, the
  // other suites sign in a handful of times only.
  return startTestStack({
    engine,
    workdir: 'supabase',
    configure: options.trustLocalProxy
      ? (config) => {
          config.api.trustedProxies = ['127.0.0.1', '::1'];
        }
      : undefined,
  });
}

/** A supabase-js client without a session; `headers` go with every request (e.g. X-Forwarded-For). */
export function anonClient(stack: Stack, headers?: Record<string, string>): SupabaseClient {
  return createClient(stack.url, stack.keys.anonKey, headers ? { ...clientOptions, global: { headers } } : clientOptions);
}

export async function signIn(
  stack: Stack,
  email: string,
  password: string,
): Promise<{ client: SupabaseClient; token: string; userId: string }> {
  const client = anonClient(stack);
  const { data, error } = await signInWithPassword(client, { email, password });
  if (error) throw new Error(`${email}: ${error.message}`);
  return { client, token: data.session!.access_token, userId: data.user!.id };
}

/** A guest: an anonymous session that has booked a berth (so it owns an order). */
export async function guestWithBooking(stack: Stack, offsetDays = 60): Promise<Persona & { orderId: string }> {
  const client = anonClient(stack);
  const { data, error } = await client.auth.signInAnonymously();
  if (error) throw error;
  const search = await client.rpc('search_available_places', {
    p_kind: 'overnight',
    p_arrival: berlinDay(offsetDays),
    p_departure: berlinDay(offsetDays + 1),
    p_boat_length: 8,
    p_boat_width: 3,
  });
  if (search.error) throw search.error;
  const booked = await client.rpc('create_booking', {
    p_place_id: search.data[0].place_id,
    p_kind: 'overnight',
    p_arrival: berlinDay(offsetDays),
    p_departure: berlinDay(offsetDays + 1),
    p_boat: { name: 'Gastboot', length: 8, width: 3 },
    p_person: { first_name: 'Gerd', last_name: 'Gast', email: `gast-${data.user!.id.slice(0, 8)}@example.org` },
  });
  if (booked.error) throw booked.error;
  return { name: 'guest', client, token: data.session!.access_token, userId: data.user!.id, orderId: booked.data.id };
}

export async function personas(stack: Stack): Promise<Record<PersonaName, Persona> & { guestOrderId: string }> {
  const guest = await guestWithBooking(stack);
  const login = async (name: 'customer' | 'other' | 'staff' | 'admin'): Promise<Persona> => {
    const s = await signIn(stack, SEED[name].email, SEED[name].password);
    return { name, client: s.client, token: s.token, userId: s.userId };
  };
  return {
    anon: { name: 'anon', client: anonClient(stack), token: stack.keys.anonKey, userId: null },
    guest,
    customer: await login('customer'),
    other: await login('other'),
    staff: await login('staff'),
    admin: await login('admin'),
    guestOrderId: guest.orderId,
  };
}

export interface RawResponse {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

/** A raw HTTP call to the stack with the given bearer (apikey is always the anon key). */
export async function http(
  stack: Stack,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { apikey: stack.keys.anonKey, 'x-supabase-api-version': '2024-01-01', ...options.headers };
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? stack.keys.anonKey}`;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || options.body instanceof Uint8Array) body = options.body as BodyInit;
    else {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const res = await fetch(`${stack.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}
