import type { Page, Response } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay, personaToken } from './booking-helpers.ts';

const ADMIN_ID = 'a0000000-0000-4000-8000-000000000001';
const CUSTOMER_EMAIL = personas.customer.email;

async function call(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  const res = await fetch(`${apiUrl}/rest/v1/${path}`, {
    method,
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : null };
}

/** Every API answer the page gets about back-office data (calendar, orders, hours, inbox, applications). */
function watchStaffData(page: Page) {
  const seen: { url: string; status: number; rows: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (res: Response) => {
    const url = res.url();
    if (
      !url.startsWith(apiUrl) ||
      !/\/rest\/v1\/(rpc\/(calendar|calendar_entries|place_calendar|open_long_term_applications)|orders|working_hours|contact_messages|long_term_applications|berth_blocks)\b/.test(
        url,
      )
    )
      return;
    pending.push(
      res.text().then(
        (text) => {
          let rows = 0;
          try {
            const body = JSON.parse(text) as unknown;
            rows = Array.isArray(body) ? body.length : 0;
          } catch {
            /* not JSON: no rows */
          }
          seen.push({ url, status: res.status(), rows });
        },
        () => {},
      ),
    );
  });
  return async () => {
    await Promise.all(pending);
    return seen;
  };
}

test.describe('a customer in the back office', () => {
  test.use({ persona: 'customer' });

  for (const path of [
    '/account/admin/calendar',
    '/account/admin/calendar?view=month',
    '/account/admin/hours',
    '/account/admin/inbox',
    '/en/account/admin/overview',
  ]) {
    test(`${path} shows the 404 page and loads no staff data`, async ({ page }) => {
      const seen = watchStaffData(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(path.startsWith('/en') ? '404 Not Found' : '404 Nicht gefunden');
      await page.waitForLoadState('networkidle');
      // No request for back-office data returned a single row (the guard stops the loader first).
      expect((await seen()).filter((r) => r.rows > 0)).toEqual([]);
      await expect(page.getByRole('button', { name: /Menü öffnen|Open menu/ })).toHaveCount(0);
    });
  }

  test('sees no drawer anywhere in the app', async ({ page }) => {
    for (const path of ['/start', '/account', '/service']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Menü öffnen' })).toHaveCount(0);
    }
  });
});

test('the API refuses a customer the staff data, whatever the page does', async () => {
  const token = await personaToken(CUSTOMER_EMAIL, personas.customer.password);
  const from = berlinDay(0);
  const to = berlinDay(30);
  for (const fn of ['calendar', 'calendar_entries']) {
    const res = await call('POST', `rpc/${fn}`, token, { p_from: from, p_to: to });
    expect(res.status, `${fn}: ${JSON.stringify(res.data)}`).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.data)).toContain('staff_only');
  }
  const applications = await call('POST', 'rpc/open_long_term_applications', token, {});
  expect(applications.status).toBeGreaterThanOrEqual(400);
  const done = await call('POST', 'rpc/set_message_done', token, { p_message_id: '00000000-0000-4000-8000-000000000000', p_done: true });
  expect(done.status).toBeGreaterThanOrEqual(400);

  // Reads: only the customer's own rows, never anyone else's.
  const me = (await call('GET', 'profiles?select=id&email=eq.' + encodeURIComponent(CUSTOMER_EMAIL), token)).data as { id: string }[];
  expect(me).toHaveLength(1);
  const others = await call('GET', `orders?select=id,user_id&user_id=neq.${me[0]!.id}&limit=5`, token);
  expect(others).toEqual({ status: 200, data: [] });
  const guestOrders = await call('GET', 'orders?select=id&user_id=is.null&limit=5', token);
  expect(guestOrders).toEqual({ status: 200, data: [] });
  for (const table of ['working_hours', 'berth_blocks']) {
    const res = await call('GET', `${table}?select=id&limit=5`, token);
    expect(res.status === 200 ? res.data : [], table).toEqual([]);
  }
  // Applications and messages: at most the customer's own (the seed has one of each).
  for (const table of ['long_term_applications', 'contact_messages']) {
    const res = await call('GET', `${table}?select=id,email&limit=50`, token);
    expect(res.status, table).toBe(200);
    const emails = new Set((res.data as { email: string }[]).map((m) => m.email));
    expect([...emails], `${table}: only the customer's own`).toEqual(emails.size ? [CUSTOMER_EMAIL] : []);
  }
  // Writes are refused too.
  const hours = await call('POST', 'working_hours', token, { work_date: from, start_time: '08:00', end_time: '09:00' });
  expect(hours.status).toBeGreaterThanOrEqual(400);
});

test('harbour staff keep to their own hours and the harbour area', async () => {
  const token = await personaToken(personas.harbour.email, personas.harbour.password);
  const admins = await call('GET', `working_hours?select=id&user_id=eq.${ADMIN_ID}&limit=5`, token);
  expect(admins).toEqual({ status: 200, data: [] });
  const applications = await call('GET', 'long_term_applications?select=id&limit=5', token);
  expect(applications).toEqual({ status: 200, data: [] });
  const report = await call('POST', 'rpc/report_revenue', token, { p_from: berlinDay(-30), p_to: berlinDay(0) });
  expect(report.status).toBeGreaterThanOrEqual(400);
  const calendar = await call('POST', 'rpc/calendar_entries', token, { p_from: berlinDay(0), p_to: berlinDay(0) });
  expect(calendar.status).toBe(200);
});
