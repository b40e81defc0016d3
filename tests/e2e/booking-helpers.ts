/**
 * Helpers of the booking browser tests: the API and mail catcher URLs, dates in Europe/Berlin,
 * reading an e-mailed code from the mail catcher's JSON API, quote_booking through the REST
 * API, and driving the five booking steps.
 */
import { expect as baseExpect, type Page } from '@playwright/test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { E2E_API_URL, E2E_MAIL_URL } from './ports.ts';
import { authStorageKey, personaSession } from '../helpers/personas.ts';
import { fillDate } from '../helpers/dates';

const expect = baseExpect.configure({ timeout: 15_000 });

export const apiUrl = process.env.E2E_API_URL ?? E2E_API_URL;

/**
 * A client address of its own for a public form sent through the API (X-Forwarded-For, which
 * the e2e stack trusts from 127.0.0.1: tests/e2e/server.ts). The forms are throttled per
 * address (5 long-term applications, 20 messages an hour); the whole suite runs from one
 * address, so each API submission names one of the documentation ranges' 508 addresses.
 */
export function formClient(): Record<string, string> {
  const n = Math.floor(Math.random() * 508);
  return { 'x-forwarded-for': n < 254 ? `198.51.100.${n + 1}` : `203.0.113.${n - 253}` };
}
export const mailUrl = process.env.E2E_MAIL_URL ?? E2E_MAIL_URL;

/**
 * Future stays are shifted by a per-run base (0-239 days, from the clock's minute), so a rerun
 * against a reused server does not find the berths of the previous run taken. Offsets below 5
 * (today, tomorrow) are not shifted. playwright.config.ts sets the base once for the run (every
 * worker the same). Specs keep apart by their offsets: a spec that finds "a free berth" and
 * books it, and a guest flow that takes the first free berth seconds before it confirms, must
 * not share days. Taken so far: 0-77 and 80-90 by many specs (each spec its own days where it
 * books), 100-106 and 140-171 (harbour-orders, booking-plan, data-tables), 200-202
 * (payment-guest), 210-248 and 250-288 (timeline, de and en), 290-291 (timeline-live).
 */
const RUN_BASE = Number(process.env.E2E_DAY_BASE ?? Math.floor(Date.now() / 60_000) % 240);

/** A Düsseldorf calendar day, today + offset (+ the run's base from offset 5 on), as yyyy-MM-dd. */
export function berlinDay(offset = 0): string {
  return calendarDay(offset >= 5 ? offset + RUN_BASE : offset);
}

/**
 * A Düsseldorf calendar day, today + offset calendar days, without the run's base (for the seed's
 * stays, which are relative to today): counted on the calendar, not as offset × 24 h, which lands
 * on the wrong day across a change of summer time late in the evening.
 */
export function calendarDay(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}

/** A fresh address per test run, so codes and orders of parallel tests never mix. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

/** The 6-digit code of the newest mail to `to` after `since` (ISO time), waiting up to 15 s. */
export async function readCode(to: string, since: string): Promise<string> {
  // The newest mail since `since` that carries a code (the catcher lists newest first): the
  // booking's own e-mails (confirmation, reminders) may arrive in between and carry none.
  let code: string | undefined;
  let subjects: string[] = [];
  await expect
    .poll(
      async () => {
        const res = await fetch(`${mailUrl}/api/messages?to=${encodeURIComponent(to)}`);
        const list = ((await res.json()) as { text?: string; html?: string; subject: string; date: string }[]).filter(
          (m) => m.date > since,
        );
        subjects = list.map((m) => m.subject);
        const withCode = list.map((m) => /\b(\d{6})\b/.exec(`${m.text ?? ''} ${m.html ?? ''}`)?.[1]).filter(Boolean);
        code = withCode[0]; // newest first
        return code ?? null;
      },
      { timeout: 15_000, message: `a mail with a 6-digit code to ${to} (got: ${subjects.join(' | ')})` },
    )
    .not.toBeNull();
  return code!;
}

/** A password session's access token for a seeded persona (for REST calls in assertions). */
export async function personaToken(email: string, password: string): Promise<string> {
  return ((await personaSession({ email, password })) as unknown as { access_token: string }).access_token;
}

/** The keys of quote_booking's answer the tests read (private.price_breakdown). */
export type Quote = {
  gross_cents: number;
  net_cents: number;
  vat_cents: number;
  sale_code: string | null;
  additional_costs_per_night_gross_cents: number;
};

/** quote_booking through the REST API, as the app calls it. */
export async function quote(params: Record<string, unknown>, token?: string): Promise<Quote> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/quote_booking`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token ?? DEMO_ANON_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Quote;
}

/** Euros as the app shows them: 49,98 € (de) or €49.98 (en). */
export function euro(cents: number, locale: 'de' | 'en'): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE', { style: 'currency', currency: 'EUR' }).format(cents / 100);
}

/** Logs a seeded persona in (the shell's persona helper: a session from the auth API into supabase-js storage). */
export async function login(page: Page, email: string, password: string, locale: 'de' | 'en' = 'de') {
  const session = await personaSession({ email, password });
  await page.goto(`/${locale}/start`);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authStorageKey, JSON.stringify(session)] as const);
}

const de = {
  arrival: 'Anreise',
  departure: 'Abreise',
  length: 'Bootslänge (m)',
  width: 'Bootsbreite (m)',
  draught: 'Tiefgang (m)',
  name: 'Bootsname',
  tag: 'Kennzeichen (optional)',
  search: 'Freie Liegeplätze suchen',
  results: 'Freie Liegeplätze',
  choose: /^Liegeplatz .* wählen$/,
  date: 'Datum',
  from: 'Von',
  until: 'Bis',
  day: /^Tagesliegeplatz/,
  email: 'E-Mail',
  first: 'Vorname',
  last: 'Nachname',
  next: 'Weiter',
  code: '6-stelliger Code',
  confirmCode: 'Bestätigen',
  skip: 'Überspringen und später bestätigen',
  terms: /Ich akzeptiere die AGB/,
  book: 'Verbindlich buchen',
};
const en = {
  arrival: 'Arrival',
  departure: 'Departure',
  length: 'Boat length (m)',
  width: 'Boat width (m)',
  draught: 'Draught (m)',
  name: 'Boat name',
  tag: 'Registration (optional)',
  search: 'Search free berths',
  results: 'Free berths',
  choose: /^Choose berth /,
  date: 'Date',
  from: 'From',
  until: 'Until',
  day: /^Day berth/,
  email: 'E-mail',
  first: 'First name',
  last: 'Last name',
  next: 'Continue',
  code: '6-digit code',
  confirmCode: 'Confirm',
  skip: 'Skip and verify later',
  terms: /I accept the terms/,
  book: 'Book now',
};
export const words = (locale: 'de' | 'en') => (locale === 'en' ? en : de);

export interface Stay {
  kind?: 'overnight' | 'day';
  arrival: string;
  departure?: string;
  from?: string;
  until?: string;
  length?: string;
  width?: string;
  draught?: string;
  boat?: string;
}

/** Step 1: fills the berth data and submits. */
export async function fillBerthData(page: Page, locale: 'de' | 'en', stay: Stay) {
  const w = words(locale);
  if (stay.kind === 'day') {
    await page.getByRole('radio', { name: w.day }).click();
    await fillDate(page.getByLabel(w.date, { exact: true }), stay.arrival);
    // Quarter-hour selects in the page's 24-hour form (issue 40 item 13), not native time inputs.
    await page.getByLabel(w.from, { exact: true }).selectOption(stay.from ?? '10:00');
    await page.getByLabel(w.until, { exact: true }).selectOption(stay.until ?? '13:00');
  } else {
    await fillDate(page.getByLabel(w.arrival, { exact: true }), stay.arrival);
    await fillDate(page.getByLabel(w.departure, { exact: true }), stay.departure ?? '');
  }
  if (stay.length !== undefined) await page.getByLabel(w.length).fill(stay.length);
  if (stay.width !== undefined) await page.getByLabel(w.width).fill(stay.width);
  if (stay.draught !== undefined) await page.getByLabel(w.draught).fill(stay.draught);
  if (stay.boat !== undefined) await page.getByLabel(w.name, { exact: true }).fill(stay.boat);
  await page.getByRole('button', { name: w.search }).click();
}

/** Step 2: picks the first (smallest) berth and returns its name. */
export async function chooseFirstBerth(page: Page, locale: 'de' | 'en'): Promise<string> {
  const w = words(locale);
  const list = page.getByRole('list', { name: w.results });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  const name = (await list.getByRole('heading').first().textContent())!.replace(/^(Liegeplatz|Berth) /, '');
  await list.getByRole('button', { name: w.choose }).first().click();
  return name;
}

/** Step 3 as a guest: e-mail and names; returns the time the code was requested. */
export async function proceedAsGuest(
  page: Page,
  locale: 'de' | 'en',
  person: { email: string; first: string; last: string },
): Promise<string> {
  const w = words(locale);
  const since = new Date(Date.now() - 1000).toISOString();
  const form = page.getByRole('form', { name: locale === 'en' ? 'Book as a guest' : 'Als Gast buchen' });
  await form.getByLabel(w.email).fill(person.email);
  await form.getByLabel(w.first).fill(person.first);
  await form.getByLabel(w.last).fill(person.last);
  await form.getByRole('button', { name: w.next }).click();
  await expect(page.getByLabel(w.code)).toBeVisible();
  return since;
}

/** Step 5: accepts the terms and books; returns the order id from the result URL. */
export async function confirmBooking(page: Page, locale: 'de' | 'en'): Promise<string> {
  const w = words(locale);
  await page.getByRole('checkbox', { name: w.terms }).click();
  await page.getByRole('button', { name: w.book }).click();
  await expect(page).toHaveURL(/\/start\/booking\/result\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}
