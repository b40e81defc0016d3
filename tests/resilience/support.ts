/**
 * Shared pieces of the resilience suites (issue 13): berths and personas made for a test,
 * booking through the stack's HTTP API as the app does (supabase-js rpc('create_booking')),
 * a seeded PRNG, and the invariants checked in SQL after every run.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Queryable } from '../../supabase/local/src/db/types.ts';

export const PROJECT = 'supabase';

/** mulberry32: a small seeded PRNG, so a failing run can be repeated with its printed seed. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
export type Prng = ReturnType<typeof prng>;

/** The seed of a run: RESILIENCE_SEED to repeat one, else a new one (printed by the caller). */
export function runSeed(): number {
  const fixed = Number(process.env.RESILIENCE_SEED);
  return Number.isInteger(fixed) && fixed > 0 ? fixed : 1 + Math.floor(Math.random() * 2 ** 31);
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

/** `count` berths named `${prefix}01`… that fit any test boat (up to 12 m x 4 m), for overnight stays (a one_day berth takes day guests only). */
export async function createBerths(db: Queryable, prefix: string, count: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.places (name, pier, width, length, one_day)
     select $1 || lpad(g::text, greatest(2, length(g::text)), '0'), $1, 4.5, 14, false from generate_series(1, $2::int) g
     returning id`,
    [prefix, count],
  );
  return rows.map((r) => r.id);
}

/**
 * `count` permanent customers (confirmed e-mail, password `Kunde1234`), written as GoTrue
 * stores them but with bcrypt cost 4 so a test does not spend seconds hashing; the sign-in
 * through /auth/v1 is the real one.
 */
export async function createCustomers(db: Queryable, prefix: string, count: number): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                             confirmation_token, recovery_token, email_change_token_new, email_change,
                             raw_app_meta_data, raw_user_meta_data, is_anonymous)
     select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
            $1 || g || '@resilience.test', extensions.crypt('Kunde1234', extensions.gen_salt('bf', 4)), now(),
            '', '', '', '', '{"provider":"email","providers":["email"]}', '{"first_name":"Res","last_name":"Ilience"}', false
     from generate_series(1, $2::int) g
     returning email`,
    [prefix, count],
  );
  return rows.map((r) => r.email);
}

export function client(url: string, anonKey: string, ip: string): SupabaseClient {
  return createClient(url, anonKey, {
    // Each persona looks like its own device (the per-IP sign-in limits are GoTrue's) when the
    // stack trusts the test process as its proxy ([api] trusted_proxies); otherwise the stack
    // ignores the header and all personas share 127.0.0.1.
    global: { headers: { 'x-forwarded-for': ip } },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
  });
}

/** A guest: a supabase-js client with an anonymous session (as the booking flow starts one). */
export async function guest(url: string, anonKey: string, n: number): Promise<SupabaseClient> {
  const sb = client(url, anonKey, `10.1.${n >> 8}.${n & 255}`);
  const { error } = await sb.auth.signInAnonymously();
  if (error) throw new Error(`guest ${n}: ${error.message}`);
  return sb;
}

/** A customer signed in with e-mail and password through /auth/v1. */
export async function customer(url: string, anonKey: string, email: string, n: number): Promise<SupabaseClient> {
  const sb = client(url, anonKey, `10.2.${n >> 8}.${n & 255}`);
  const { error } = await sb.auth.signInWithPassword({ email, password: 'Kunde1234' });
  if (error) throw new Error(`customer ${email}: ${error.message}`);
  return sb;
}

export interface Attempt {
  placeId: string;
  arrival: string;
  departure: string;
  boatLength: number;
}

/** create_booking as src/features/booking/api/create-booking.ts calls it. */
export function book(sb: SupabaseClient, a: Attempt, who: string) {
  return sb.rpc('create_booking', {
    p_place_id: a.placeId,
    p_kind: 'overnight',
    p_arrival: a.arrival,
    p_departure: a.departure,
    p_boat: { name: 'Rheinperle', tag: null, length: a.boatLength, width: 3.1 },
    p_person: { first_name: 'Res', last_name: who, email: `${who}@resilience.test`, country: 'DE' },
    p_save_profile: false,
  });
}

/** The refusal the app maps to "no longer available" (src/features/booking/api/create-booking.ts isBerthTaken). */
export const NO_LONGER_AVAILABLE = { status: 409, code: '23P01', message: 'berth_no_longer_available' };

/**
 * The booking invariants, each as a query that returns the rows breaking it (none = holds):
 * no two live occupations of a berth overlap; every open order has exactly one live
 * reservation/rent row with its own berth and times, every ended one none; every order row
 * of a status has its order; the price equals the breakdown's gross, and the breakdown is the
 * one private.price_breakdown computes for the stored stay, boat and sale code (its value is the
 * gross per night, ADR 0011; staff bookings
 * also note who booked).
 */
export const INVARIANTS: Record<string, string> = {
  'overlapping live occupations of a berth': `
    select a.id, b.id as other from public.place_statuses a
    join public.place_statuses b on b.place_id = a.place_id and b.id > a.id
     and not a.cancelled and not b.cancelled
     and tstzrange(a.starts_at, a.ends_at) && tstzrange(b.starts_at, b.ends_at)`,
  'open orders without exactly one matching live status row': `
    select o.id from public.orders o
    where o.status in ('unverified', 'confirmed', 'checked_in')
      and (select count(*) from public.place_statuses s
           where s.order_id = o.id and not s.cancelled and s.place_id = o.place_id
             and s.starts_at = o.starts_at and s.ends_at = o.ends_at) <> 1`,
  'ended orders still holding a berth': `
    select o.id from public.orders o
    where o.status in ('cancelled', 'expired')
      and exists (select 1 from public.place_statuses s where s.order_id = o.id and not s.cancelled)`,
  'status rows without their order (or orders of no berth)': `
    select s.id from public.place_statuses s
    where (s.type <> 'service' and not exists (select 1 from public.orders o where o.id = s.order_id))
       or not exists (select 1 from public.places p where p.id = s.place_id)`,
  'prices inconsistent with the breakdown': `
    select o.id from public.orders o
    where o.price_cents <> (o.price_breakdown ->> 'gross_cents')::int
       or o.price_breakdown - 'booked_by_staff' is distinct from private.price_breakdown(
            o.kind, (o.price_breakdown ->> 'nights')::int, (o.boat ->> 'length')::numeric,
            o.price_breakdown ->> 'sale_code',
            case when o.price_breakdown ->> 'sale_code' is not null
                 then coalesce((o.price_breakdown ->> 'additional_costs_per_night_gross_cents')::int,
                               (o.price_breakdown ->> 'additional_costs_per_night_cents')::int) end)
       or (o.kind <> 'day' and (o.price_breakdown ->> 'nights')::int
           <> (o.ends_at at time zone 'Europe/Berlin')::date - (o.starts_at at time zone 'Europe/Berlin')::date)`,
};

/** Every invariant that does not hold, with up to 5 offending ids each. */
export async function brokenInvariants(db: Queryable): Promise<Record<string, string[]>> {
  const broken: Record<string, string[]> = {};
  for (const [name, sql] of Object.entries(INVARIANTS)) {
    const { rows } = await db.query<{ id: string }>(`${sql} limit 5`);
    if (rows.length) broken[name] = rows.map((r) => r.id);
  }
  return broken;
}
