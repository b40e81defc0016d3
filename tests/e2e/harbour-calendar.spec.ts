import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { contextAs, personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay, personaToken } from './booking-helpers.ts';
import { barOn, showBerths } from './timeline-helpers.ts';

async function rpc<T>(name: string, body: Record<string, unknown>, token: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, data: (await res.json()) as T };
}

test.describe('the live berth calendar', () => {
  test.use({ persona: 'harbour' });

  test('shows a customer booking made elsewhere within 2 s, without a reload', async ({ page, consoleErrors }) => {
    const arrival = berlinDay(1);
    const departure = berlinDay(2);
    await page.goto('/account/admin/calendar');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Belegungskalender');
    await expect(page.locator('[data-live="live"]')).toBeVisible({ timeout: 10_000 });
    // The week starts today (Europe/Berlin).
    await expect(page.locator('[data-day][aria-current="date"]')).toHaveCount(1);
    await expect(page.locator('[data-place]')).not.toHaveCount(0);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    // A customer books through the API in another context.
    const token = await personaToken(personas.customer.email, personas.customer.password);
    const boatName = `Live ${Date.now().toString(36)}`;
    const free = await rpc<{ place_id: string; name: string }[]>(
      'search_available_places',
      { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 8, p_boat_width: 3 },
      token,
    );
    expect(free.status, JSON.stringify(free.data)).toBe(200);
    expect(free.data.length).toBeGreaterThan(0);
    const place = free.data[0]!;
    await showBerths(page, [place.name]);
    const bar = barOn(page, place.place_id, arrival);
    await expect(bar).toHaveCount(0);

    const booked = await rpc<{ id: string }>(
      'create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: boatName, length: 8, width: 3 },
        p_person: { first_name: 'Karla', last_name: 'Kunde' },
      },
      token,
    );
    expect(booked.status, JSON.stringify(booked.data)).toBe(200);
    const t0 = Date.now();
    await expect(bar).toHaveAttribute('data-kind', 'reservation', { timeout: 2_000 });
    const latency = Date.now() - t0;
    test.info().annotations.push({ type: 'booking -> calendar latency', description: `${latency} ms` });
    // One bar across the stay: arrival day through departure day.
    await expect(bar).toHaveAttribute('data-days', `${arrival} ${departure}`);
    await expect(bar).toHaveAttribute('aria-label', new RegExp(`Reservierung · Karla Kunde · ${boatName}`));
    await expect(bar).toContainText(`Res. · Karla Kunde · ${boatName}`);
    // Tap shows guest and boat.
    await bar.click();
    const details = page.getByRole('dialog');
    await expect(details).toContainText('Gast: Karla Kunde');
    await expect(details).toContainText(`Boot: ${boatName}`);
    expect(navigations).toEqual([]);
    await page.keyboard.press('Escape');

    // Cancelling (an UPDATE, not a DELETE) frees the cell live too.
    const cancelled = await rpc('cancel_booking', { p_order_id: booked.data.id }, token);
    expect(cancelled.status, JSON.stringify(cancelled.data)).toBe(200);
    await expect(bar).toHaveCount(0, { timeout: 2_000 });
    expect(consoleErrors).toEqual([]);
  });

  test('a check-in turns the reservation into rent live', async ({ page }) => {
    const arrival = berlinDay(0);
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    const free = await rpc<{ place_id: string; name: string }[]>(
      'search_available_places',
      { p_kind: 'overnight', p_arrival: arrival, p_departure: berlinDay(1), p_boat_length: 8, p_boat_width: 3 },
      customer,
    );
    expect(free.status, JSON.stringify(free.data)).toBe(200);
    const placeId = free.data.at(-1)!.place_id;
    const placeName = free.data.at(-1)!.name;
    const booked = await rpc<{ id: string }>(
      'create_booking',
      {
        p_place_id: placeId,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: berlinDay(1),
        p_boat: { name: `Rent ${Date.now().toString(36)}`, length: 8, width: 3 },
        p_person: { first_name: 'Rita', last_name: 'Rent' },
      },
      customer,
    );
    expect(booked.status, JSON.stringify(booked.data)).toBe(200);
    await page.goto('/account/admin/calendar');
    await expect(page.locator('[data-live="live"]')).toBeVisible({ timeout: 10_000 });
    await showBerths(page, [placeName]);
    const bar = barOn(page, placeId, arrival);
    await expect(bar).toHaveAttribute('data-kind', 'reservation');
    const checkedIn = await rpc('check_in', { p_order_id: booked.data.id }, staff);
    expect(checkedIn.status, JSON.stringify(checkedIn.data)).toBe(200);
    await expect(bar).toHaveAttribute('data-kind', 'rent', { timeout: 2_000 });
    await expect(bar).toContainText('Miete · Rita Rent');
  });

  test('switches to day and month views', async ({ page }) => {
    await page.goto('/account/admin/calendar');
    const plan = page.getByTestId('timeline');
    await expect(plan).toHaveAttribute('data-day-count', '7');
    await expect(plan.locator('[data-day]')).toHaveCount(7);
    await page.getByRole('button', { name: 'Monat' }).click();
    await expect(page).toHaveURL(/view=month/);
    await expect(plan).toHaveAttribute('data-day-count', '30');
    await expect(plan).toHaveAttribute('data-from', berlinDay(0));
    await page.getByRole('button', { name: 'Tag' }).click();
    await expect(plan).toHaveAttribute('data-day-count', '1');
    await expect(plan.locator('[data-day]')).toHaveCount(1);
  });
});

test.describe('a customer in the back office', () => {
  test('gets the 404 page for the calendar and the API refuses the calendar', async ({ browser }) => {
    const context = await contextAs(browser, 'customer');
    const page = await context.newPage();
    await page.goto('/account/admin/calendar');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    await expect(page.getByTestId('timeline')).toHaveCount(0);
    await context.close();
    const token = await personaToken(personas.customer.email, personas.customer.password);
    const res = await rpc('calendar', { p_from: berlinDay(0), p_to: berlinDay(6) }, token);
    expect(res.status).toBe(403);
  });
});
