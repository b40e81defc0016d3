/**
 * XSS (issue 13, item 4): markup and script in data that people type (news by an admin, boat
 * and person names of a booking, a staff note on a berth block, a customer's profile name)
 * renders as text on the pages that show it: the start page's news, the order page, the
 * harbour overview and the calendar. In Chromium: no dialog fires, no injected element
 * appears, no script runs, and the payload is visible literally. And the built app carries the
 * anon key only: no service-role key, no JWT secret.
 *
 * Tags in typed values (`<b>x</b>`, `<0>y</0>`, `<script>alert(1)</script>`, and `\u0041`, which
 * Lingui's `t` would decode) show exactly as typed wherever a `<Trans>` or `t` carries them
 * (src/lib/lingui-literal.ts): berth, guest and boat names, a news title, a block note, a
 * contact message and a service request's boat, on the pages that show them.
 */
import { E2E_DIST } from './ports';
import type { Locator, Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY, DEMO_JWT_SECRET, DEMO_SERVICE_ROLE_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay, fillBerthData, personaToken } from './booking-helpers.ts';
import { barOn, berthName as nameOfBerth, row, showBerths } from './timeline-helpers.ts';

const run = Date.now().toString(36);
// Short enough for the bounds (names 1-100, boat names 1-60 characters).
const PAYLOADS = {
  img: `<img src=x onerror="alert('img');window.__xss=1" id=xi${run}>`,
  svg: `"><svg onload=alert('svg') id=xs${run}>`,
  script: `<script>alert('s')</script>`,
  link: `<a href="javascript:alert('a')" id=xa${run}>k</a>`,
  iframe: `<iframe srcdoc="<script>parent.alert(1)</script>">`,
};

async function api<T>(method: string, path: string, token: string, body?: unknown, prefer?: string): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(prefer ? { prefer } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}

/** Records dialogs and asserts that nothing injected exists or ran on the page. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return {
    dialogs,
    async assertClean() {
      expect(dialogs).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      for (const id of [`xi${run}`, `xs${run}`, `xa${run}`]) await expect(page.locator(`[id="${id}"]`)).toHaveCount(0);
      await expect(page.locator('main iframe, main script, main svg[onload], main img[onerror]')).toHaveCount(0);
    },
  };
}

test.describe('XSS payloads render as text', () => {
  let bookingId: string;
  const boat = `${PAYLOADS.img}`.slice(0, 60);
  const firstName = PAYLOADS.svg;
  const lastName = PAYLOADS.script;
  const note = `${PAYLOADS.link} ${PAYLOADS.iframe}`;

  test.beforeAll(async () => {
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    const news = await api(
      'POST',
      '/rest/v1/news',
      admin,
      {
        title: `${PAYLOADS.img} ${run}`,
        short_description: `${PAYLOADS.script}${PAYLOADS.svg}`,
        description: PAYLOADS.iframe,
        title_en: `${PAYLOADS.img} ${run}`,
        short_description_en: PAYLOADS.link,
        starts_at: new Date(Date.now() - 3_600_000).toISOString(),
        ends_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
      'return=minimal',
    );
    expect(news.status, JSON.stringify(news.data)).toBe(201);
    // a stay arriving today (overview "arrivals today") with markup in boat and person names
    const free = await api<{ place_id: string }[]>('POST', '/rest/v1/rpc/search_available_places', customer, {
      p_kind: 'overnight',
      p_arrival: berlinDay(0),
      p_departure: berlinDay(1),
      p_boat_length: 7,
      p_boat_width: 2.6,
    });
    expect(free.status, JSON.stringify(free.data)).toBe(200);
    const booked = await api<{ id: string; place_id: string }>('POST', '/rest/v1/rpc/create_booking', customer, {
      p_place_id: free.data[0]!.place_id,
      p_kind: 'overnight',
      p_arrival: berlinDay(0),
      p_departure: berlinDay(1),
      p_boat: { name: boat, length: 7, width: 2.6 },
      p_person: { first_name: firstName, last_name: lastName },
    });
    expect(booked.status, JSON.stringify(booked.data)).toBe(200);
    bookingId = booked.data.id;
    // a staff note on a block of the same berth tomorrow evening
    const block = await api('POST', '/rest/v1/rpc/add_berth_block', staff, {
      p_place_id: booked.data.place_id,
      p_starts_at: `${berlinDay(1)}T18:00:00+01:00`,
      p_ends_at: `${berlinDay(1)}T20:00:00+01:00`,
      p_note: note,
    });
    expect(block.status, JSON.stringify(block.data)).toBe(200);
  });

  test('news on the start page (de and en)', async ({ page }) => {
    const w = watch(page);
    await page.goto('/start');
    await expect(page.getByText(`${PAYLOADS.img} ${run}`)).toBeVisible();
    await expect(page.getByText(`${PAYLOADS.script}${PAYLOADS.svg}`)).toBeVisible();
    await w.assertClean();
    await page.goto('/en/start');
    await expect(page.getByText(PAYLOADS.link)).toBeVisible();
    await w.assertClean();
  });

  test.describe('as the customer', () => {
    test.use({ persona: 'customer' });
    test('the order page shows boat and person names as text', async ({ page }) => {
      const w = watch(page);
      await page.goto(`/order/${bookingId}`);
      await expect(page.getByText(boat, { exact: false })).toBeVisible();
      await expect(page.getByText(`${firstName} ${lastName}`, { exact: false })).toBeVisible();
      await w.assertClean();
    });
  });

  test.describe('as harbour staff', () => {
    test.use({ persona: 'harbour' });
    test('the overview and the calendar show names and notes as text', async ({ page }) => {
      const w = watch(page);
      await page.goto('/account/admin/overview');
      await expect(page.getByRole('region', { name: 'Anreisen heute' })).toContainText(`${firstName} ${lastName} · ${boat}`);
      await w.assertClean();
      await page.goto('/account/admin/calendar');
      await expect(page.locator('[data-live="live"]')).toBeVisible({ timeout: 10_000 });
      const order = await api<{ place_id: string }[]>(
        'GET',
        `/rest/v1/orders?select=place_id&id=eq.${bookingId}`,
        await personaToken(personas.harbour.email, personas.harbour.password),
      );
      const placeId = order.data[0]!.place_id;
      await showBerths(page, [await nameOfBerth(placeId)]);
      const today = barOn(page, placeId, berlinDay(0), 'reservation');
      const label = await today.getAttribute('aria-label');
      expect(label).toContain(`${firstName} ${lastName} · ${boat}`);
      await today.click();
      const details = page.getByRole('dialog');
      await expect(details).toContainText(`Boot: ${boat}`);
      // <Trans>Gast: {e.guest}</Trans> shows the whole name, its <script>…</script> included
      await expect(details).toContainText(`Gast: ${firstName} ${lastName}`);
      await w.assertClean();
      await page.keyboard.press('Escape');
      // The block tomorrow evening: its own bar.
      const tomorrow = row(page, placeId).locator(`[data-entry][data-days~="${berlinDay(1)}"]:not([data-kind="reservation"])`);
      await tomorrow.click();
      await expect(page.getByRole('dialog')).toContainText(note);
      await w.assertClean();
    });
  });
});

test.describe('tags in typed values show as typed (Lingui <Trans> and t)', () => {
  const TAGS = '<b>x</b> <0>y</0> <script>alert(1)</script>';
  const boatName = TAGS;
  const first = TAGS;
  // Unique per run of the beforeAll, not per worker: with fullyParallel a worker may be given
  // this describe's tests in more than one group and then runs the beforeAll again (berth names
  // are unique, and the first run's berth still exists, archived).
  let tag = '';
  // no regex metacharacters: other specs build RegExps from berth names they list
  let berthName = '';
  let last = ''; // a backslash sequence that Lingui's t would decode to "A"
  let guest = '';
  let newsTitle = '';
  let note = '';
  let contactName = '';
  let contactText = '';
  let serviceName = '';
  function freshValues() {
    tag = `${run}${Math.random().toString(36).slice(2, 8)}`;
    berthName = `Zz <b>x</b> <0>y</0> <script>x</script> ${tag}`;
    last = `\\u0041 ${tag}`;
    guest = `${first} ${last}`;
    newsTitle = `${TAGS} \\u0041 ${tag}`;
    note = `${TAGS} ${tag}`;
    contactName = `${TAGS} ${tag}`;
    contactText = `${TAGS} Nachricht ${tag}`;
    serviceName = `Service ${tag}`;
  }
  let placeId: string;
  let orderId: string;

  /** The text is on the page as typed, and none of its tags became an element. */
  async function literal(scope: Locator, text: string) {
    await expect(scope.getByText(text, { exact: false }).first()).toBeVisible();
    await expect(scope).toContainText(text);
    await expect(scope.page().locator('main b, main script')).toHaveCount(0);
  }

  test.beforeAll(async () => {
    freshValues();
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    // a berth only a 45 m boat needs, so the booking search below finds just this one
    const place = await api<{ id: string }[]>(
      'POST',
      '/rest/v1/places',
      admin,
      { name: berthName, pier: 'Z', length: 50, width: 14 },
      'return=representation',
    );
    expect(place.status, JSON.stringify(place.data)).toBe(201);
    placeId = place.data[0]!.id;
    const booked = await api<{ id: string }>('POST', '/rest/v1/rpc/create_booking', customer, {
      p_place_id: placeId,
      p_kind: 'overnight',
      p_arrival: berlinDay(0),
      p_departure: berlinDay(1),
      p_boat: { name: boatName, length: 45, width: 12 },
      p_person: { first_name: first, last_name: last },
    });
    expect(booked.status, JSON.stringify(booked.data)).toBe(200);
    orderId = booked.data.id;
    const block = await api('POST', '/rest/v1/rpc/add_berth_block', staff, {
      p_place_id: placeId,
      p_starts_at: `${berlinDay(1)}T18:00:00+01:00`,
      p_ends_at: `${berlinDay(1)}T20:00:00+01:00`,
      p_note: note,
    });
    expect(block.status, JSON.stringify(block.data)).toBe(200);
    const news = await api(
      'POST',
      '/rest/v1/news',
      admin,
      {
        title: newsTitle,
        short_description: TAGS,
        description: TAGS,
        title_en: newsTitle,
        short_description_en: TAGS,
        starts_at: new Date(Date.now() - 3_600_000).toISOString(),
        ends_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
      'return=minimal',
    );
    expect(news.status, JSON.stringify(news.data)).toBe(201);
    const contact = await api('POST', '/rest/v1/rpc/send_contact_message', DEMO_ANON_KEY, {
      p_name: contactName,
      p_email: `xss-${tag}@example.test`,
      p_message: contactText,
      p_locale: 'de',
    });
    expect(contact.status, JSON.stringify(contact.data)).toBe(200);
    const service = await api('POST', '/rest/v1/rpc/request_service', DEMO_ANON_KEY, {
      p_service: 'boat_lift',
      p_name: serviceName,
      p_email: `xss-service-${tag}@example.test`,
      p_message: `Bitte kranen ${tag}`,
      p_boat: { name: boatName },
      p_locale: 'de',
    });
    expect(service.status, JSON.stringify(service.data)).toBe(200);
  });

  test.afterAll(async () => {
    // best effort: the berth leaves the lists of later specs (the booking keeps its snapshot)
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    if (orderId) await api('POST', '/rest/v1/rpc/cancel_booking', staff, { p_order_id: orderId });
    if (placeId) await api('PATCH', `/rest/v1/places?id=eq.${placeId}`, admin, { archived: true }, 'return=minimal');
  });

  test('public news on /start and /en/start', async ({ page }) => {
    const w = watch(page);
    await page.goto('/start');
    await literal(page.locator('main'), newsTitle);
    await w.assertClean();
    await page.goto('/en/start');
    await literal(page.locator('main'), newsTitle);
    await w.assertClean();
  });

  test('booking step "choose berth" shows the berth name', async ({ page }) => {
    const w = watch(page);
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(30), departure: berlinDay(31), length: '45', width: '12', boat: 'Test' });
    const list = page.getByRole('list', { name: 'Freie Liegeplätze' });
    await expect(list.getByRole('heading', { name: `Liegeplatz ${berthName}` })).toBeVisible({ timeout: 15_000 });
    await literal(list, `Liegeplatz ${berthName}`);
    await expect(list.getByRole('button', { name: `Liegeplatz ${berthName} wählen` })).toBeVisible();
    await w.assertClean();
  });

  test.describe('as the customer', () => {
    test.use({ persona: 'customer' });
    test('the order page, the booking list and the check-in page', async ({ page }) => {
      const w = watch(page);
      await page.goto(`/order/${orderId}`);
      const main = page.locator('main');
      await literal(main, berthName);
      await literal(main, boatName);
      await literal(main, guest);
      await w.assertClean();
      await page.goto('/account/bookings');
      await literal(main, `Liegeplatz ${berthName} · ${boatName}`);
      await w.assertClean();
      // today's arrivals of the signed-in customer (check-in without an order id)
      await page.goto('/order/check-in');
      await literal(main, `Liegeplatz ${berthName}, Anreise`);
      await w.assertClean();
    });
  });

  test.describe('as harbour staff', () => {
    test.use({ persona: 'harbour' });
    // three tests, not one: together they took 12 s alone and passed the 30 s limit under the full suite's load
    test('calendar details', async ({ page }) => {
      const w = watch(page);
      await page.goto('/account/admin/calendar');
      await expect(page.locator('[data-live="live"]')).toBeVisible({ timeout: 10_000 });
      await page.getByLabel('Liegeplatz suchen').fill(tag);
      await expect(row(page, placeId)).toHaveCount(1);
      await barOn(page, placeId, berlinDay(0), 'reservation').click();
      const details = page.getByRole('dialog');
      await literal(details, berthName);
      await literal(details, `Gast: ${guest}`);
      await literal(details, `Boot: ${boatName}`);
      await w.assertClean();
      await page.keyboard.press('Escape');
      await row(page, placeId)
        .locator(`[data-entry][data-days~="${berlinDay(1)}"]:not([data-kind="reservation"])`)
        .click();
      await literal(page.getByRole('dialog'), note);
      await w.assertClean();
    });

    test('the orders list, the order and its cancel dialog', async ({ page }) => {
      const w = watch(page);
      await page.goto(`/account/admin/orders?q=${tag}`);
      // At the phone width of these tests the orders are cards (the table from `sm`).
      const row = page.locator('[data-order-card]').filter({ hasText: tag });
      await expect(row).toHaveCount(1);
      await literal(row, guest);
      await literal(row, boatName);
      await literal(row, berthName);
      await w.assertClean();
      await page.goto(`/account/admin/orders/${orderId}`);
      await literal(page.locator('main'), berthName);
      await literal(page.locator('main'), guest);
      // the cancel confirmation: <Trans>… Liegeplatz {o.place_snapshot.name} …</Trans>
      await page.getByRole('button', { name: 'Stornieren' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Buchung stornieren?' });
      await expect(dialog).toContainText(`Liegeplatz ${berthName} für diesen Zeitraum`);
      await expect(dialog.locator('b, script')).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();
      await w.assertClean();
    });

    test('the inbox', async ({ page }) => {
      const w = watch(page);
      await page.goto('/account/admin/inbox');
      const open = page.getByRole('region', { name: 'Offen' });
      const card = open.getByRole('listitem', { name: `Nachricht – ${contactName}` });
      await literal(card, contactName);
      await literal(card, contactText);
      await literal(open.getByRole('listitem').filter({ hasText: serviceName }), `Boot/Platz: ${boatName}`);
      await w.assertClean();
    });
  });

  test.describe('as the admin', () => {
    test.use({ persona: 'admin' });
    test('the news list, its row actions and the berth list', async ({ page }) => {
      const w = watch(page);
      await page.goto('/account/admin/news');
      const row = page.getByRole('row').filter({ hasText: tag });
      await literal(row, newsTitle);
      // t`${title} bearbeiten`: the accessible name keeps the typed \u0041
      await expect(row.getByRole('link', { name: `${newsTitle} bearbeiten`, exact: true })).toBeVisible();
      await expect(row.getByRole('button', { name: `${newsTitle} löschen`, exact: true })).toBeVisible();
      await w.assertClean();
      await page.goto('/account/admin/places');
      await page.getByLabel('Suche').fill(tag);
      await literal(page.getByRole('table', { name: 'Liegeplätze' }), berthName);
      await expect(page.getByRole('link', { name: `${berthName} bearbeiten`, exact: true })).toBeVisible();
      await w.assertClean();
    });
  });
});

test('the shipped app holds no service-role key or JWT secret (only the anon key)', () => {
  // the build the web server serves (tests/e2e/server.ts), every file of it
  const dist = resolve(import.meta.dirname, '../..', E2E_DIST);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else files.push(join(dir, entry.name));
    }
  };
  walk(dist);
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  const serviceSignature = DEMO_SERVICE_ROLE_KEY.split('.')[2];
  let anonFound = false;
  for (const file of files) {
    const text = readFileSync(file).toString('latin1');
    expect(text.includes(serviceSignature), file).toBe(false);
    expect(text.includes(DEMO_JWT_SECRET), file).toBe(false);
    anonFound ||= text.includes(DEMO_ANON_KEY);
  }
  expect(anonFound, 'the anon key is built in (the scan reads the right files)').toBe(true);
});
