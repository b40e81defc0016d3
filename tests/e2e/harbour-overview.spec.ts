import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay, formClient, personaToken } from './booking-helpers.ts';

async function rpc<T>(name: string, body: Record<string, unknown>, token: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, data: (await res.json()) as T };
}

test.describe('the harbour overview', () => {
  test.use({ persona: 'harbour' });

  test("shows today's arrival and pending payment from the database, and the check-in live", async ({ page, consoleErrors }) => {
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    const boatName = `Heute ${Date.now().toString(36)}`;
    const arrival = berlinDay(0);
    const free = await rpc<{ place_id: string }[]>(
      'search_available_places',
      { p_kind: 'overnight', p_arrival: arrival, p_departure: berlinDay(1), p_boat_length: 8, p_boat_width: 3 },
      customer,
    );
    expect(free.status, JSON.stringify(free.data)).toBe(200);
    const booked = await rpc<{ id: string }>(
      'create_booking',
      {
        p_place_id: free.data[0]!.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: berlinDay(1),
        p_boat: { name: boatName, length: 8, width: 3 },
        p_person: { first_name: 'Olga', last_name: 'Overview' },
      },
      customer,
    );
    expect(booked.status, JSON.stringify(booked.data)).toBe(200);

    await page.goto('/account/admin/overview');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Übersicht');
    await expect(page.getByRole('region', { name: 'Anreisen heute' })).toContainText(`Olga Overview · ${boatName}`);
    await expect(page.getByRole('region', { name: 'Offene Zahlungen' })).toContainText(boatName);
    await expect(page.getByRole('region', { name: 'Eingecheckt' })).not.toContainText(boatName);

    const arrivals = page.getByRole('region', { name: 'Anreisen heute' });
    const stillExpected = arrivals.locator(':scope > ul');
    await expect(stillExpected).toContainText(boatName);

    const checkedIn = await rpc('check_in', { p_order_id: booked.data.id }, staff);
    expect(checkedIn.status, JSON.stringify(checkedIn.data)).toBe(200);
    await expect(page.getByRole('region', { name: 'Eingecheckt' })).toContainText(boatName, { timeout: 5_000 });
    // Issue 40 item 14: a guest who has checked in is no longer listed as still to come, but
    // apart, marked as arrived.
    await expect(arrivals.getByTestId('arrived-today')).toContainText(`Olga Overview · ${boatName}`);
    await expect(arrivals.locator(':scope > ul, :scope > p').first()).not.toContainText(boatName);
    expect(consoleErrors).toEqual([]);
  });

  test('lists the berths free now; a block covering this moment takes a berth off the list live', async ({ page }) => {
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    await page.goto('/account/admin/overview');
    const freeNow = page.getByRole('region', { name: 'Jetzt frei' });
    // A count first, the names on request (issue 40 item 14: not 53 chips).
    await expect(freeNow.getByRole('listitem')).toHaveCount(0);
    await freeNow.getByText(/Liegeplätze? (ist|sind) gerade frei/).click();
    await expect(freeNow.getByRole('listitem')).not.toHaveCount(0);
    expect(await freeNow.getByRole('listitem').count()).toBe(
      Number(/\((\d+)\)/.exec((await freeNow.getByRole('heading').textContent())!)![1]),
    );
    const names = await freeNow.getByRole('listitem').allTextContents();
    const places = await fetch(`${apiUrl}/rest/v1/places?select=id,name&archived=eq.false`, {
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${staff}` },
    });
    const byName = new Map(((await places.json()) as { id: string; name: string }[]).map((p) => [p.name, p.id]));
    // Block the first listed berth from a minute ago for an hour (bounded tries: it may be booked later today).
    let blocked: { name: string; id: string } | undefined;
    for (const name of names.slice(0, 5)) {
      const res = await rpc<{ id: string }>(
        'add_berth_block',
        {
          p_place_id: byName.get(name),
          p_starts_at: new Date(Date.now() - 60_000).toISOString(),
          p_ends_at: new Date(Date.now() + 3_600_000).toISOString(),
          p_note: 'e2e free-now',
        },
        staff,
      );
      if (res.status === 200) {
        blocked = { name, id: res.data.id };
        break;
      }
    }
    expect(blocked, 'one of the free berths could be blocked').toBeTruthy();
    await expect(freeNow.getByRole('listitem').filter({ hasText: new RegExp(`^${blocked!.name}$`) })).toHaveCount(0, { timeout: 5_000 });
    const cancelled = await rpc('cancel_berth_block', { p_place_status_id: blocked!.id }, staff);
    expect(cancelled.status).toBe(200);
    await expect(freeNow.getByRole('listitem').filter({ hasText: new RegExp(`^${blocked!.name}$`) })).toHaveCount(1, { timeout: 5_000 });
  });

  test('names open messages and new long-term applications, live, with a link to the inbox', async ({ page }) => {
    const suffix = Date.now().toString(36);
    const anon = { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json' };
    const send = (name: string) =>
      fetch(`${apiUrl}/rest/v1/rpc/request_service`, {
        method: 'POST',
        headers: { ...anon, ...formClient() },
        body: JSON.stringify({
          p_service: 'boat_lift',
          p_name: name,
          p_email: `lift-${suffix}-${name.length}@example.test`,
          p_message: 'Kran bitte am Freitag um 10 Uhr.',
        }),
      });
    const first = await send(`Otto Offen ${suffix}`);
    expect(first.status, await first.text()).toBe(200);
    const apply = (last: string) =>
      fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
        method: 'POST',
        headers: { ...anon, ...formClient() },
        body: JSON.stringify({
          p_email: `apply-${suffix}-${last.length}@example.test`,
          p_first_name: 'Berta',
          p_last_name: last,
          p_boat: { name: 'Möwe', length: 9, width: 3 },
        }),
      });
    const applied = await apply(`Bewerber ${suffix}`);
    expect(applied.status, await applied.text()).toBe(200);

    await page.goto('/account/admin/overview');
    const messages = page.getByRole('region', { name: 'Offene Anfragen und Nachrichten' });
    await expect(messages).toContainText(`Serviceanfrage: Bootskran · Otto Offen ${suffix}`);
    const applications = page.getByRole('region', { name: 'Neue Bewerbungen für Langzeitliegeplätze' });
    await expect(applications).toContainText(`Berta Bewerber ${suffix} · jeder passende Liegeplatz`);
    // Harbour staff see names only: the admins' berth pages are not linked for them.
    await expect(applications.getByRole('link')).toHaveCount(0);

    // Live: a request sent while the overview is open shows without a reload.
    const second = await send(`Paula Pier ${suffix}`);
    expect(second.status).toBe(200);
    await expect(messages).toContainText(`Paula Pier ${suffix}`, { timeout: 5_000 });

    await messages.getByRole('link', { name: 'Zum Posteingang' }).click();
    await expect(page).toHaveURL(/\/account\/admin\/inbox$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Posteingang');
  });

  test('the figures at a glance are what the database counts (en)', async ({ page, consoleErrors }) => {
    // Issue 40 item 15: arrivals, departures, occupancy, money to pay back and the week's
    // bookings, counted in SQL (overview_figures); the tiles show those numbers.
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    await page.goto('/en/account/admin/overview');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Overview');
    const figures = page.getByRole('region', { name: 'At a glance' });
    const tile = (id: string) => figures.locator(`[data-figure=${id}]`);
    const shown = async () => ({
      arrivals: await tile('arrivals').locator('dd').first().textContent(),
      arrived: await tile('arrivals').locator('dd').nth(1).textContent(),
      departures: await tile('departures').locator('dd').first().textContent(),
      occupancy: await tile('occupancy').locator('dd').nth(1).textContent(),
      percent: await tile('occupancy').locator('dd').first().textContent(),
      refunds: await tile('refunds').locator('dd').nth(1).textContent(),
      bookings: await tile('bookings').locator('dd').first().textContent(),
    });
    const counted = async () => {
      const res = await rpc<
        {
          arrivals_expected: number;
          arrivals_arrived: number;
          departures: number;
          berths_occupied: number;
          berths_bookable: number;
          refund_orders: number;
          bookings_week: number;
        }[]
      >('overview_figures', {}, staff);
      expect(res.status, JSON.stringify(res.data)).toBe(200);
      const f = res.data[0]!;
      expect(f.berths_bookable).toBeGreaterThan(0);
      const n = (x: number) => x.toLocaleString('en-GB');
      return {
        arrivals: n(f.arrivals_expected),
        arrived: `still expected · ${n(f.arrivals_arrived)} already arrived`,
        departures: n(f.departures),
        occupancy: `${n(f.berths_occupied)} of ${n(f.berths_bookable)} berths`,
        percent: `${Math.round((100 * f.berths_occupied) / f.berths_bookable)}%`,
        refunds: f.refund_orders === 1 ? '1 order' : `${n(f.refund_orders)} orders`,
        bookings: n(f.bookings_week),
      };
    };
    // Other tests may book meanwhile: the page and the database agree at some moment.
    await expect.poll(async () => JSON.stringify(await shown()) === JSON.stringify(await counted()), { timeout: 10_000 }).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  test('is in English on /en', async ({ page }) => {
    await page.goto('/en/account/admin/overview');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Overview');
    await expect(page.getByRole('region', { name: 'Arrivals today' })).toBeVisible();
  });
});
