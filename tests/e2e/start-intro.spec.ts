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
  de: { hours: 'Montag bis Freitag08:00–18:00 Uhr', km: 'Rhein-Kilometer744', vhf: 'UKW-Kanal69', approach: 'Die Hafeneinfahrt liegt am rechten Ufer', map: 'Auf der Karte ansehen (OpenStreetMap)' },
  en: { hours: 'Monday to Friday08:00–18:00', km: 'Rhine km744', vhf: 'VHF channel69', approach: 'The harbour entrance is on the right bank', map: 'View on the map (OpenStreetMap)' },
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
    await approachEn.fill('The harbour entrance is on the right bank at Rhine km 744. Call the harbour office on VHF before entering and moor at a free guest berth on the head pier.');
    await form.getByRole('button', { name: 'Startseite speichern' }).click();
    await expect(form.getByRole('status')).toHaveText('Gespeichert.');
    expect(consoleErrors).toEqual([]);
  });
});
