import type { Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { expect as baseExpect, journeyIn, test } from '../helpers/app-test';
import { DEMO_ANON_KEY, DEMO_SERVICE_ROLE_KEY } from '../../supabase/local/src/keys.ts';
import { totpCode } from '../../supabase/local/src/auth/totp.ts';
import { apiUrl, readCode } from './booking-helpers.ts';
import { createAccount } from './admin-content-helpers.ts';
import { waitForMail } from './payment-helpers.ts';
import { personas } from '../helpers/personas.ts';
import { DEMO_TOTP_SECRETS, unusedTotpCode } from '../../supabase/local/test/harness/demo-staff.ts';

/**
 * Two-factor sign-in (issue 26) in the browser, de and en: a harbour staff member enrols a TOTP
 * factor from the profile (codes computed here from the key the page shows), signs out, signs in
 * with the second step and reaches the orders desk; a wrong code gets a clear message; an admin
 * resets the factor. Fresh accounts for the enrolment; the demo staff's own factors (seed.sql) are
 * used by the last test, the way a tester signs in with the README's keys.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

const service = createClient(apiUrl, DEMO_SERVICE_ROLE_KEY, { auth: { persistSession: false, autoRefreshToken: false } });

async function harbourStaff(prefix: string) {
  const account = await createAccount(prefix, 'Frieda', 'Faktor');
  const { error } = await service.from('user_roles').update({ harbor: true }).eq('user_id', account.id);
  if (error) throw new Error(error.message);
  return account;
}

async function login(page: Page, locale: 'de' | 'en', email: string, password: string) {
  await page.goto(`/${locale}/auth/login`);
  await page.getByLabel(locale === 'de' ? 'E-Mail' : 'E-mail').fill(email);
  await page.getByLabel(locale === 'de' ? 'Passwort' : 'Password').fill(password);
  await page.getByRole('button', { name: locale === 'de' ? 'Anmelden' : 'Log in', exact: true }).click();
}

/** A wrong code for now: one digit changed, so it matches no step of the window. */
const wrongCode = (secret: string) => {
  const c = totpCode(secret);
  return String((Number(c[0]) + 5) % 10) + c.slice(1);
};

const texts = {
  de: {
    setUp: 'Zwei-Faktor-Anmeldung einrichten',
    code: 'Code aus der App',
    confirm: 'Bestätigen',
    active: 'Die Zwei-Faktor-Anmeldung ist eingerichtet.',
    required: 'Für Ihre Rolle im Hafen ist die Anmeldung mit einem zweiten Faktor vorgeschrieben.',
    step: 'Bestätigung mit zweitem Faktor',
    signIn: 'Anmelden',
    wrong: 'Der Code stimmt nicht.',
    orders: 'Bestellungen',
  },
  en: {
    setUp: 'Set up two-factor sign-in',
    code: 'Code from the app',
    confirm: 'Confirm',
    active: 'Two-factor sign-in is set up.',
    required: 'Your role at the harbour requires signing in with a second factor.',
    step: 'Confirm with your second factor',
    signIn: 'Log in',
    wrong: 'That code is not correct.',
    orders: 'Orders',
  },
} as const;

for (const locale of ['de', 'en'] as const) {
  const l = texts[locale];
  if (journeyIn(locale, 'de'))
    test(`${locale}: new staff must set up TOTP at their first sign-in, then sign in with the second step and reach the orders desk`, async ({
      page,
      consoleErrors,
    }) => {
      // The demo harbour requires two-factor sign-in of harbour staff (seed.sql): a staff member
      // without a factor is sent to set one up instead of seeing refusals.
      const staff = await harbourStaff(`mfa-${locale}`);
      await login(page, locale, staff.email, staff.password);
      await page.waitForURL(/\/auth\/mfa/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.setUp);
      await expect(page.getByText(l.required)).toBeVisible();
      await page.goto(`/${locale}/account/admin/orders`);
      await page.waitForURL(/\/auth\/mfa/);
      await page.getByRole('button', { name: l.setUp }).click();
      const secretBox = page.getByTestId('totp-secret');
      await expect(secretBox).toBeVisible();
      const secret = (await secretBox.getAttribute('data-secret'))!;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expect(secretBox).toHaveText(secret.replace(/(.{4})/g, '$1 ').trim());
      await expect(page.locator('img[src^="data:image/svg+xml"]')).toBeVisible();
      await page.setViewportSize({ width: 390, height: 900 });
      await page.screenshot({ path: `reports/screenshots/mfa-enrol-${locale}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: `reports/screenshots/mfa-enrol-${locale}-1280.png`, fullPage: true });
      // A wrong code first: a clear message, nothing enrolled.
      await page.getByRole('textbox', { name: l.code }).fill(wrongCode(secret));
      await page.getByRole('button', { name: l.confirm }).click();
      await expect(page.getByRole('alert').filter({ hasText: l.wrong })).toBeVisible();
      await page.getByRole('textbox', { name: l.code }).fill(await unusedTotpCode(secret));
      await page.getByRole('button', { name: l.confirm }).click();
      // On to the page asked for, and the profile says the factor is set up.
      await page.waitForURL(new RegExp(`/${locale}/account/admin/orders$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(l.orders);
      await page.goto(`/${locale}/account/profile`);
      await expect(page.getByText(l.active)).toBeVisible();

      // Sign out, sign in again: the password alone leads to the second step.
      await page.evaluate(() => localStorage.clear());
      await login(page, locale, staff.email, staff.password);
      await page.waitForURL(/\/auth\/mfa/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.step);
      await page.getByRole('textbox', { name: l.code }).fill(wrongCode(secret));
      await page.getByRole('button', { name: l.signIn, exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: l.wrong })).toBeVisible();
      await page.setViewportSize({ width: 390, height: 800 });
      await page.screenshot({ path: `reports/screenshots/mfa-step-${locale}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: `reports/screenshots/mfa-step-${locale}-1280.png`, fullPage: true });
      // Each code is accepted once (RFC 6238): the sign-in takes the step after the set-up's.
      await page.getByRole('textbox', { name: l.code }).fill(await unusedTotpCode(secret));
      await page.getByRole('button', { name: l.signIn, exact: true }).click();
      await page.waitForURL(new RegExp(`/${locale}/account(?!/profile)`));
      const stored = await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.endsWith('-auth-token'))?.[1] ?? '');
      const token = (JSON.parse(stored) as { access_token: string }).access_token;
      expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).aal).toBe('aal2');

      // The orders desk opens with the aal2 session.
      await page.goto(`/${locale}/account/admin/orders`);
      await expect(page).toHaveURL(new RegExp(`/${locale}/account/admin/orders$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(l.orders);
      expect(consoleErrors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    });
}

for (const locale of ['de', 'en'] as const) {
  if (journeyIn(locale, 'en'))
    test(`${locale}: staff with a second factor reset a forgotten password only after the code from the app`, async ({
      page,
      consoleErrors,
    }) => {
      // A fresh staff member with a verified factor (enrolled through the API, as the app does).
      const staff = await harbourStaff(`mfa-reset-pw-${locale}`);
      const person = createClient(apiUrl, DEMO_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
      await person.auth.signInWithPassword({ email: staff.email, password: staff.password });
      const enrolled = await person.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator' });
      const secret = enrolled.data!.totp.secret;
      expect(
        (await person.auth.mfa.challengeAndVerify({ factorId: enrolled.data!.id, code: await unusedTotpCode(secret) })).error,
      ).toBeNull();

      const t =
        locale === 'de'
          ? {
              email: 'E-Mail',
              send: 'Link und Code senden',
              enter: 'Code eingeben',
              code: '6-stelliger Code',
              confirm: 'Bestätigen',
              password: 'Neues Passwort',
              repeat: 'Passwort wiederholen',
              save: 'Passwort speichern',
            }
          : {
              email: 'E-mail',
              send: 'Send link and code',
              enter: 'Enter the code',
              code: '6-digit code',
              confirm: 'Confirm',
              password: 'New password',
              repeat: 'Repeat password',
              save: 'Save password',
            };
      await page.goto(`/${locale}/auth/password-forgotten`);
      await page.getByLabel(t.email).fill(staff.email);
      const t0 = new Date(Date.now() - 1000).toISOString();
      await page.getByRole('button', { name: t.send }).click();
      await page.getByRole('link', { name: t.enter }).click();
      await page.getByLabel(t.code).fill(await readCode(staff.email, t0));
      await page.getByRole('button', { name: t.confirm }).click();
      await page.getByLabel(t.password).fill('Neu2026Hafen');
      await page.getByLabel(t.repeat).fill('Neu2026Hafen');
      await page.getByRole('button', { name: t.save }).click();
      // The recovery code alone is aal1: GoTrue refuses the new password (insufficient_aal), and
      // the app asks for the code from the authenticator app first.
      await page.waitForURL(/\/auth\/mfa/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts[locale].step);
      await page.getByRole('textbox', { name: texts[locale].code }).fill(await unusedTotpCode(secret));
      await page.getByRole('button', { name: texts[locale].signIn, exact: true }).click();
      // Back on the reset page with an aal2 session: now the password is set.
      await page.waitForURL(new RegExp(`/${locale}/auth/reset-password`));
      await page.getByLabel(t.password).fill('Neu2026Hafen');
      await page.getByLabel(t.repeat).fill('Neu2026Hafen');
      await page.getByRole('button', { name: t.save }).click();
      await page.waitForURL(new RegExp(`/${locale}/account`));
      const check = createClient(apiUrl, DEMO_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
      expect((await check.auth.signInWithPassword({ email: staff.email, password: 'Neu2026Hafen' })).error).toBeNull();
      // The refused PUT /user is the one expected console error.
      expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    });
}

test('a customer sets up a second factor on the profile and removes it again (de)', async ({ page, consoleErrors }) => {
  const customer = await createAccount('mfa-own', 'Olga', 'Optional');
  await login(page, 'de', customer.email, customer.password);
  await page.waitForURL(/\/de\/account/);
  await page.goto('/de/account/profile');
  await page.getByRole('button', { name: texts.de.setUp }).click();
  const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
  await page.getByRole('textbox', { name: texts.de.code }).fill(await unusedTotpCode(secret));
  await page.getByRole('button', { name: texts.de.confirm }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Die Zwei-Faktor-Anmeldung ist jetzt aktiv.' })).toBeVisible();
  await page.getByRole('button', { name: 'Zweiten Faktor entfernen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Der zweite Faktor wurde entfernt.' })).toBeVisible();
  await expect(page.getByRole('button', { name: texts.de.setUp })).toBeVisible();
  const { data } = await service.auth.admin.mfa.listFactors({ userId: customer.id });
  expect(data?.factors.filter((f) => f.status === 'verified') ?? []).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test.describe('admin resets a factor', () => {
  test.use({ persona: 'admin' });

  test("an admin resets a staff member's second factor: audited, the person is told by e-mail", async ({ page }) => {
    const staff = await harbourStaff('mfa-reset');
    // The staff member enrols through the API (as the app does).
    const person = createClient(apiUrl, DEMO_ANON_KEY, { auth: { persistSession: false, autoRefreshToken: false } });
    await person.auth.signInWithPassword({ email: staff.email, password: staff.password });
    const enrolled = await person.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator' });
    expect(enrolled.error).toBeNull();
    const verified = await person.auth.mfa.challengeAndVerify({ factorId: enrolled.data!.id, code: totpCode(enrolled.data!.totp.secret) });
    expect(verified.error).toBeNull();
    const since = new Date().toISOString();

    await page.goto(`/de/account/admin/users/${staff.id}/edit`);
    const section = page.getByRole('region', { name: 'Zwei-Faktor-Anmeldung' });
    await expect(section).toContainText('Eingerichtet.');
    await section.getByRole('button', { name: 'Zweiten Faktor zurücksetzen' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Zurücksetzen' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Der zweite Faktor wurde zurückgesetzt.' })).toBeVisible();
    await expect(section).toContainText('Nicht eingerichtet.');
    await page.screenshot({ path: 'reports/screenshots/mfa-admin-reset-de.png', fullPage: true });

    const factors = await service.auth.admin.mfa.listFactors({ userId: staff.id });
    expect(factors.data!.factors).toEqual([]);
    const mail = await waitForMail(staff.email, since, /Zwei-Faktor/);
    expect(mail.subject).toBe('Ihre Zwei-Faktor-Anmeldung wurde zurückgesetzt');
    const audit = await service
      .from('audit_log')
      .select('table_name, action, row_key')
      .eq('table_name', 'auth.mfa_factors')
      .eq('row_key', enrolled.data!.id);
    expect(audit.data).toEqual([{ table_name: 'auth.mfa_factors', action: 'delete', row_key: enrolled.data!.id }]);
  });
});

test.describe('the demo staff sign in with the README keys', () => {
  // Issue 40 item 5: after the password and the code staff land in the back office's own shell
  // (its overview), not in the guest's account; at 1280 px with the sidebar, on a phone with
  // the compact menu and no guest bottom tabs.
  for (const [locale, persona, width, landing] of [
    ['de', 'harbour', 390, 'Bestellungen'],
    ['en', 'admin', 1280, 'Orders'],
  ] as const) {
    test(`${locale}: ${persona} signs in with password and the code of the published key, lands in the back office at ${width} px and reaches the orders desk`, async ({
      page,
      consoleErrors,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      const { email, password } = personas[persona];
      await login(page, locale, email, password);
      await page.waitForURL(/\/auth\/mfa/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts[locale].step);
      await page.getByRole('textbox', { name: texts[locale].code }).fill(await unusedTotpCode(DEMO_TOTP_SECRETS[email], apiUrl));
      await page.getByRole('button', { name: texts[locale].signIn, exact: true }).click();
      await page.waitForURL(new RegExp(`/${locale}/account/admin/overview$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(locale === 'en' ? 'Overview' : 'Übersicht');
      // The back office's own bar: the public site, the language, sign-out; no guest navigation.
      const bar = page.getByTestId('back-office-bar');
      await expect(bar.getByRole('link', { name: locale === 'en' ? 'To the website' : 'Zur Website' })).toBeVisible();
      await expect(bar.getByRole('group', { name: locale === 'en' ? 'Language' : 'Sprache' })).toBeVisible();
      await expect(bar.getByRole('button', { name: locale === 'en' ? 'Log out' : 'Abmelden' })).toBeVisible();
      await expect(page.getByTestId('bottom-nav')).toHaveCount(0);
      await expect(page.getByTestId('top-nav')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: locale === 'en' ? 'My account' : 'Mein Konto' })).toHaveCount(0);
      const sidebar = page.locator('[data-slot=sidebar-container]');
      if (width === 1280) {
        await expect(sidebar).toBeVisible();
        await sidebar.getByRole('navigation', { name: 'Harbour team' }).getByRole('link', { name: landing, exact: true }).click();
      } else {
        await expect(sidebar).toBeHidden();
        await page.getByRole('button', { name: 'Menü öffnen' }).click();
        await page.getByRole('dialog', { name: 'Hafenverwaltung' }).getByRole('link', { name: landing, exact: true }).click();
      }
      await expect(page).toHaveURL(new RegExp(`/${locale}/account/admin/orders$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(landing);
      await expect(page.locator(width === 1280 ? '[data-order]' : '[data-order-card]').first()).toBeVisible();
      expect(consoleErrors).toEqual([]);
    });
  }
});
