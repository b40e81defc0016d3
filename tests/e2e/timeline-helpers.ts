import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, personaToken } from './booking-helpers.ts';
import { createBerth } from './admin-helpers.ts';

/** The staff booking timeline: rows are virtualised, so tests narrow it to the berths they use. */
export const timeline = (page: Page) => page.getByTestId('timeline');

export async function rpcAs<T>(name: string, body: Record<string, unknown>, token: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, data: (await res.json()) as T };
}

export const staffToken = () => personaToken(personas.harbour.email, personas.harbour.password);

/** The name of a berth (staff read places). */
export async function berthName(placeId: string): Promise<string> {
  const res = await fetch(`${apiUrl}/rest/v1/places?select=name&id=eq.${placeId}`, {
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${await staffToken()}` },
  });
  const rows = (await res.json()) as { name: string }[];
  return rows[0]!.name;
}

/** Narrows the timeline to these berths by the search field (de or en label). */
export async function showBerths(page: Page, names: string[]) {
  await page.getByLabel(/^(Liegeplatz suchen|Find berth)$/).fill(names.join(' '));
  for (const name of names) await expect(page.locator(`[data-place-name="${name}"]`)).toHaveCount(1);
}

/** The row of a berth, and a bar in it touching `day` (of the kind, when given). */
export const row = (page: Page, placeId: string) => page.locator(`[data-place="${placeId}"]`);
export const barOn = (page: Page, placeId: string, day: string, kind?: string): Locator =>
  row(page, placeId).locator(`[data-entry][data-days~="${day}"]${kind ? `[data-kind="${kind}"]` : ''}`);
/**
 * The bar of one guest's stay in a berth's row, by the guest's name in its label. Prefer it to
 * `barOn` for a booking a test made: another spec's stay may depart from the same berth on this
 * stay's arrival day (the berth is free for the nights, not for the day), and both bars touch it.
 */
export const stayBar = (page: Page, placeId: string, guest: string): Locator =>
  row(page, placeId).locator(`[data-entry][data-kind="reservation"][aria-label*="${guest}"]`);

/**
 * Berths of the test's own (made by the admin, 12 × 4 m: an 8 × 3 m boat fits), named
 * `<tag>A`, `<tag>B`, … so they sort in that order; the tag is unique to the test run. A free
 * berth found by a search may be another spec's (audit.spec.ts makes "AUEN…" berths, which sort
 * before the seeded ones) and change under the test; these are the test's alone, and no other
 * name contains theirs, so the search field shows just them.
 */
export async function ownBerths(tag: string, count: number): Promise<{ place_id: string; name: string }[]> {
  const unique = `${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const names = Array.from({ length: count }, (_, i) => `${unique}${String.fromCharCode(65 + i)}`);
  return Promise.all(names.map(async (name) => ({ place_id: await createBerth(name), name })));
}

/** A confirmed walk-in booking made by staff through the API. */
export async function bookAsStaff(
  placeId: string,
  arrival: string,
  departure: string,
  guest: { first: string; last: string; boat: string },
): Promise<string> {
  const res = await rpcAs<{ id: string }>(
    'staff_create_booking',
    {
      p_place_id: placeId,
      p_kind: 'overnight',
      p_arrival: arrival,
      p_departure: departure,
      p_boat: { name: guest.boat, tag: null, length: 8, width: 3 },
      p_person: { first_name: guest.first, last_name: guest.last },
    },
    await staffToken(),
  );
  expect(res.status, JSON.stringify(res.data)).toBe(200);
  return res.data.id;
}

/** The berth an order is on now (the database's word). */
export async function orderPlace(orderId: string): Promise<string> {
  const res = await fetch(`${apiUrl}/rest/v1/orders?select=place_id&id=eq.${orderId}`, {
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${await staffToken()}` },
  });
  return ((await res.json()) as { place_id: string }[])[0]!.place_id;
}

/** The Berlin arrival day of an order now (the database's word). */
export async function orderArrival(orderId: string): Promise<string> {
  const res = await fetch(`${apiUrl}/rest/v1/orders?select=starts_at&id=eq.${orderId}`, {
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${await staffToken()}` },
  });
  const startsAt = ((await res.json()) as { starts_at: string }[])[0]!.starts_at;
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date(startsAt));
}

/** Drags with the mouse from the centre of `from` by (dx, dy), in steps (dnd-kit starts after 6 px). */
export async function mouseDrag(page: Page, from: Locator, dx: number, dy: number) {
  const box = (await from.boundingBox())!;
  const x = box.x + Math.min(box.width / 2, 30);
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 4, y + dy / 4 + 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}
