import { createClient } from '@supabase/supabase-js';
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { DEMO_TOTP_SECRETS, unusedTotpCode } from '../../supabase/local/test/harness/demo-staff.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay } from './booking-helpers.ts';
import { showBerths, stayBar } from './timeline-helpers.ts';
import { createBerth } from './admin-helpers.ts';

/**
 * The timeline is live for staff who have just signed in with password and TOTP (issue 39,
 * item 4): the second factor's aal2 token reaches Realtime without a reload, so a guest's
 * booking made elsewhere (through the API) appears on the open timeline. Staff sign in through
 * the login form and the second step, which lead to the timeline by the app's own navigation
 * (no page load in between: a page load would start from the stored aal2 session).
 *
 * Its own berth (made by the admin for this run) on its own days (offsets 290-291, see
 * booking-helpers.ts): no other spec books it, and the search field shows just it.
 */
test.describe.configure({ timeout: 90_000 });

test("en: staff signed in with TOTP see a guest's booking appear on the open timeline without a reload", async ({
  page,
  consoleErrors,
}) => {
  const arrival = berlinDay(290);
  const departure = berlinDay(291);
  const tag = `Live${Date.now().toString(36)}`;
  const name = `LIVE${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const berth = { place_id: await createBerth(name), name };

  // Not signed in: the calendar sends to the login, which comes back to it after both steps.
  await page.goto(`/en/account/admin/calendar?from=${arrival}&view=week`);
  await page.waitForURL(/\/en\/auth\/login/);
  const { email, password } = personas.harbour;
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/en\/auth\/mfa/);
  await page.getByRole('textbox', { name: 'Code from the app' }).fill(await unusedTotpCode(DEMO_TOTP_SECRETS[email], apiUrl));
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/en\/account\/admin\/calendar/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Berth calendar');
  await expect(page.locator('[data-live="live"]')).toBeVisible({ timeout: 10_000 });
  await showBerths(page, [berth.name]);
  await expect(stayBar(page, berth.place_id, tag)).toHaveCount(0);
  // Count page loads from here on: the booking must arrive without one.
  let loads = 0;
  page.on('load', () => loads++);

  // A guest books that berth through the API, in a client of their own.
  const guest = createClient(apiUrl, DEMO_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
  const signedIn = await guest.auth.signInAnonymously();
  expect(signedIn.error).toBeNull();
  const booked = await guest.rpc('create_booking', {
    p_place_id: berth.place_id,
    p_kind: 'overnight',
    p_arrival: arrival,
    p_departure: departure,
    p_boat: { name: `Boot ${tag}`, length: 8, width: 3 },
    p_person: { first_name: 'Gina', last_name: tag, email: `gina-${tag.toLowerCase()}@example.org` },
  });
  expect(booked.error, JSON.stringify(booked.error)).toBeNull();

  await expect(stayBar(page, berth.place_id, `Gina ${tag}`)).toHaveCount(1, { timeout: 5_000 });
  expect(loads).toBe(0);
  expect(consoleErrors).toEqual([]);
});
