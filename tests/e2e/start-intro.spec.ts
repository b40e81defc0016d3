/**
 * The start page introduces the harbour (issue 23, item 3): illustration, address, office hours,
 * a map link (OpenStreetMap) and the approach by water, in de and en, from the settings an
 * admin edits.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';

const SHOTS = process.env.E2E_SCREENSHOTS ? 'reports/layouts' : null;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const texts = {
  de: {
    hours: 'Montag bis Freitag08:00–18:00 Uhr',
    km: 'Rhein-Kilometer744',
    vhf: 'UKW-Kanal69',
    approach: 'Die Hafeneinfahrt liegt am rechten Ufer',
    map: 'Auf der Karte ansehen (OpenStreetMap)',
  },
  en: {
    hours: 'Monday to Friday08:00–18:00',
    km: 'Rhine km744',
    vhf: 'VHF channel69',
    approach: 'The harbour entrance is on the right bank',
    map: 'View on the map (OpenStreetMap)',
  },
};

for (const locale of ['de', 'en'] as const) {
  test(`the start page introduces the harbour (${locale})`, async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/${locale}/start`);
    const intro = page.getByTestId('harbour-intro');
    await expect(page.locator('main img[src$="harbour-illustration.svg"]')).toBeVisible();
    await expect(intro.getByTestId('harbour-address')).toContainText('Speditionstraße 25');
    await expect(intro.getByTestId('harbour-address')).toContainText('40221 Düsseldorf');
    await expect(intro.getByTestId('office-hours')).toContainText(texts[locale].hours);
    const map = intro.getByRole('link', { name: texts[locale].map });
    await expect(map).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\/\?mlat=51\.2139&mlon=6\.7452#map=/);
    await expect(intro.getByTestId('water-facts')).toContainText(texts[locale].km);
    await expect(intro.getByTestId('water-facts')).toContainText(texts[locale].vhf);
    await expect(intro.getByTestId('water-approach')).toContainText(texts[locale].approach);
    await shot(page, `start-intro-${locale}-390`);
    expect(consoleErrors).toEqual([]);
  });
}

test.describe('an admin', () => {
  test.use({ persona: 'admin' });
  // Both tests save the same settings form (the whole row): one after the other.
  test.describe.configure({ mode: 'serial' });
  test('changes the start page in the settings, checked in the form and by the database', async ({ page, browser, consoleErrors }) => {
    test.setTimeout(60_000);
    await page.goto('/de/account/admin/settings');
    const form = page.getByRole('form', { name: 'Startseite: der Hafen' });
    const km = form.getByLabel('Rhein-Kilometer');
    const vhf = form.getByLabel('UKW-Kanal (optional)');
    const approachEn = form.getByLabel('Beschreibung (Englisch, optional)');
    await expect(km).toHaveValue('744');

    // Refused in the form: a channel that does not exist, office hours backwards.
    await vhf.fill('99');
    await form.getByLabel('Mo–Fr ab').fill('19:00');
    await form.getByRole('button', { name: 'Startseite speichern' }).click();
    await expect(form.getByText('UKW-Kanal zwischen 1 und 88 oder leer')).toBeVisible();
    await expect(form.getByText('Das Hafenbüro muss vor dem Schließen öffnen')).toBeVisible();

    // Saved: the start page shows it in both languages.
    await vhf.fill('');
    await form.getByLabel('Mo–Fr ab').fill('07:30');
    await form.getByLabel('Straße und Hausnummer').fill('Am Handelshafen 3');
    await km.fill('745,5');
    await approachEn.fill('Enter between the red and green lights and moor at the head pier.');
    await form.getByRole('button', { name: 'Startseite speichern' }).click();
    await expect(form.getByRole('status')).toHaveText('Gespeichert.');

    await page.goto('/de/start');
    const intro = page.getByTestId('harbour-intro');
    await expect(intro.getByTestId('water-facts')).toContainText('Rhein-Kilometer745,5');
    await expect(intro.getByTestId('water-facts')).not.toContainText('UKW');
    await expect(intro.getByTestId('office-hours')).toContainText('07:30–18:00 Uhr');
    await page.goto('/en/start');
    await expect(intro.getByTestId('water-facts')).toContainText('Rhine km745.5');
    await expect(intro.getByTestId('water-approach')).toContainText('Enter between the red and green lights');

    // The contact, door-code and legal pages read the same settings (not built-in values).
    await page.goto('/de/contact');
    await expect(page.getByTestId('harbour-address')).toContainText('Am Handelshafen 3');
    await expect(page.getByTestId('office-hours')).toContainText('Montag bis Freitag07:30–18:00 Uhr');
    for (const path of ['/de/impressum', '/en/privacy']) {
      await page.goto(path);
      await expect(page.getByTestId('harbour-address')).toContainText('Am Handelshafen 3');
    }
    // The door-code page tells a visitor (who sees no code) when the office is open.
    const visitor = await browser.newContext({ baseURL: new URL(page.url()).origin, storageState: { cookies: [], origins: [] } });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto('/de/service/door-code');
    await expect(visitorPage.getByTestId('office-hours')).toContainText('montags bis freitags 07:30–18:00 Uhr');
    await visitor.close();

    // (The database's own checks of these values: supabase/tests/386-start-intro.sql.)

    // Back to the demo values (other tests read the start page).
    await page.goto('/de/account/admin/settings');
    await vhf.fill('69');
    await form.getByLabel('Mo–Fr ab').fill('08:00');
    await form.getByLabel('Straße und Hausnummer').fill('Speditionstraße 25');
    await km.fill('744');
    await approachEn.fill(
      'The harbour entrance is on the right bank at Rhine km 744. Call the harbour office on VHF before entering and moor at a free guest berth on the head pier.',
    );
    await form.getByRole('button', { name: 'Startseite speichern' }).click();
    await expect(form.getByRole('status')).toHaveText('Gespeichert.');
    expect(consoleErrors).toEqual([]);
  });

  const contact = {
    de: {
      form: 'Startseite: der Hafen',
      save: 'Startseite speichern',
      saved: 'Gespeichert.',
      phone: 'Telefon',
      email: 'E-Mail',
      badPhone: 'Bitte die Telefonnummer international angeben, z. B. +49 211 1234560',
      badEmail: 'E-Mail ist nicht gültig',
      newPhone: '+49 211 5550101',
      newEmail: 'buero-de@yachthafen.example',
      imprintPhone: 'Telefon: +49 211 5550101',
      doorPhone: 'rufen Sie uns an: +49 211 5550101',
    },
    en: {
      form: 'Start page: the harbour',
      save: 'Save start page',
      saved: 'Saved.',
      phone: 'Phone',
      email: 'E-mail',
      badPhone: 'Please enter the phone number in international form, e.g. +49 211 1234560',
      badEmail: 'E-mail is not valid',
      newPhone: '+31 20-555 0102',
      newEmail: 'office-en@yachthafen.example',
      imprintPhone: 'Phone: +31 20-555 0102',
      doorPhone: 'call us: +31 20-555 0102',
    },
  };
  for (const lang of ['de', 'en'] as const) {
    test(`${lang}: changes the harbour's phone and e-mail; every public page shows them, bad input is refused in the page's language`, async ({
      page,
      browser,
      consoleErrors,
    }) => {
      test.setTimeout(90_000);
      const l = contact[lang];
      await page.goto(`/${lang}/account/admin/settings`);
      const form = page.getByRole('form', { name: l.form });
      const phone = form.getByLabel(l.phone, { exact: true });
      const email = form.getByLabel(l.email, { exact: true });
      await expect(phone).toHaveValue('+49 211 1234560');
      await expect(email).toHaveValue('hafen@hafen-duesseldorf.example');

      // Refused in the form, in the admin's language: a national number, an address without a domain.
      await phone.fill('0211 1234560');
      await email.fill('hafen@local');
      await form.getByRole('button', { name: l.save }).click();
      await expect(form.getByText(l.badPhone, { exact: true })).toBeVisible();
      await expect(form.getByText(l.badEmail, { exact: true })).toBeVisible();
      await expect(phone).toHaveAttribute('aria-invalid', 'true');

      await phone.fill(l.newPhone);
      await email.fill(l.newEmail);
      await form.getByRole('button', { name: l.save }).click();
      await expect(form.getByRole('status')).toHaveText(l.saved);

      // A visitor sees them on the start, contact, imprint, privacy and door-code pages.
      const visitor = await browser.newContext({ baseURL: new URL(page.url()).origin, storageState: { cookies: [], origins: [] } });
      const v = await visitor.newPage();
      await v.goto(`/${lang}/start`);
      const intro = v.getByTestId('harbour-intro');
      await expect(intro.getByTestId('harbour-phone')).toContainText(l.newPhone);
      await expect(intro.getByTestId('harbour-phone')).toHaveAttribute('href', `tel:${l.newPhone.replace(/[^\d+]/g, '')}`);
      await expect(intro.getByTestId('harbour-email')).toHaveAttribute('href', `mailto:${l.newEmail}`);
      await v.goto(`/${lang}/contact`);
      await expect(v.getByTestId('harbour-phone')).toHaveText(l.newPhone);
      await expect(v.getByTestId('harbour-email')).toHaveText(l.newEmail);
      await v.goto(`/${lang}/impressum`);
      await expect(v.getByTestId('harbour-phone')).toHaveText(l.imprintPhone);
      await expect(v.getByTestId('harbour-email')).toContainText(l.newEmail);
      await v.goto(`/${lang}/privacy`);
      await expect(v.getByTestId('harbour-email')).toHaveText(l.newEmail);
      await expect(v.getByRole('main')).toContainText(l.newEmail);
      await v.goto(`/${lang}/service/door-code`);
      await expect(v.getByRole('main')).toContainText(l.doorPhone);
      await expect(v.getByRole('main')).not.toContainText('1234560');
      await visitor.close();

      // Back to the demo values (other tests read these pages).
      await page.goto(`/${lang}/account/admin/settings`);
      await phone.fill('+49 211 1234560');
      await email.fill('hafen@hafen-duesseldorf.example');
      await form.getByRole('button', { name: l.save }).click();
      await expect(form.getByRole('status')).toHaveText(l.saved);
      expect(consoleErrors).toEqual([]);
    });
  }
});
