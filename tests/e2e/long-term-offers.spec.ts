import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { loginAs } from '../helpers/personas';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, formClient } from './booking-helpers.ts';
import { adminToken, createBerth, rest, uniqueName } from './admin-helpers.ts';
import { pdfText } from '../../supabase/local/test/harness/pdf-text.ts';
import { holdBerth } from './long-term-helpers.ts';

/**
 * Offers from the waiting list and contracts accepted online (issue 42 items 2-3,
 * docs/adr/0047-offers-and-contracts.md). The state the UI is not about (a free berth, the
 * applications) is set up over REST; the journeys are the admin's offer and the applicant's answer.
 */
const apply = (email: string, first: string, placeId: string, locale: 'de' | 'en') =>
  fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json', ...formClient() },
    body: JSON.stringify({
      p_email: email,
      p_first_name: first,
      p_last_name: 'Seemann',
      p_boat: { name: `Boot ${first}`, length: 9.4, width: 3.2 },
      p_place_id: placeId,
      p_locale: locale,
    }),
  });

/** Clicks "Vertrag als PDF" of a German contract in `scope`: the file's name and title checked, its text. */
async function downloadContractPdf(page: Page, scope: Locator, number: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    scope.getByRole('button', { name: `Vertrag als PDF (${number})` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`Vertrag-${number}.pdf`);
  const pdf = await pdfText(new Uint8Array(readFileSync(await download.path())));
  expect(pdf.title).toBe(`Liegeplatzvertrag ${number}`);
  return pdf;
}

async function summer2027(): Promise<string> {
  const res = await rest(await adminToken(), 'seasons?select=id&name=eq.Sommer%202027');
  return (res.body as { id: string }[])[0].id;
}

test.describe('long-term offers and contracts', () => {
  test.use({ persona: 'admin' });

  test('an admin offers a freed berth to the applicant, who accepts the contract online with bank transfer (de)', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const berth = uniqueName('O');
    const placeId = await createBerth(berth);
    // kunde applies for this berth without signing in: the offer reaches the account by its verified address.
    expect((await apply('kunde@hafen.test', 'Klaus', placeId, 'de')).status).toBe(200);

    // /vertrag shows the terms in force from the database, with their version.
    await page.goto('/vertrag');
    await expect(page.getByTestId('terms-version')).toContainText(/^Fassung \d+ vom /);
    await expect(page.getByRole('heading', { name: '1. Vertragsgegenstand' })).toBeVisible();

    await page.goto('/account/admin/offers');
    await expect(page.getByRole('heading', { level: 1, name: 'Angebote und Verträge' })).toBeVisible();
    const composer = page.getByRole('region', { name: 'Liegeplatz anbieten' });
    await composer.getByLabel('Saison').selectOption({ label: 'Sommer 2027' });
    await composer.getByLabel('Freier Liegeplatz').selectOption({ label: `${berth} (12 × 4 m)` });
    const row = composer.locator('tr[data-candidate="kunde@hafen.test"]').last();
    await expect(row).toContainText('vorgeschlagen');
    // The seeded applicant who wants D10 is shown with the reason.
    await expect(composer.locator('tbody')).toContainText('hat sich um einen anderen Liegeplatz beworben');
    await row.getByRole('button', { name: 'Angebot an Klaus Seemann senden' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Angebot an Klaus Seemann senden?' });
    await dialog.getByRole('button', { name: 'Angebot senden' }).click();
    await expect(dialog).toBeHidden();
    const offers = page.getByRole('region', { name: 'Angebote', exact: true });
    await expect(offers.locator('tr', { hasText: berth })).toContainText('offen');

    await loginAs(page, 'customer');
    await page.goto('/account/long-time-place');
    const offer = page.getByRole('region', { name: 'Angebote' }).locator('article', { hasText: berth });
    await expect(offer.getByTestId('contract-text')).toContainText(`Liegeplatz: ${berth}`);
    await expect(offer.getByTestId('contract-text')).toContainText('Gesamt: 1.070,00 €');
    await offer.getByLabel('Zahlung', { exact: true }).selectOption('2');
    await expect(offer.getByTestId('contract-text')).toContainText('in 2 Raten');
    await offer.getByRole('button', { name: 'Zahlungspflichtigen Vertrag schließen' }).click();
    await expect(offer.getByRole('alert').first()).toContainText('Bitte bestätigen Sie');
    await offer.getByRole('checkbox').check();
    await offer.getByRole('button', { name: 'Zahlungspflichtigen Vertrag schließen' }).click();
    const contract = page.getByRole('region', { name: 'Meine Verträge' }).locator('article', { hasText: berth });
    await expect(contract).toContainText(/Vertrag LV-2027-\d{4}: Liegeplatz/);
    await expect(contract).toContainText('in 2 Raten, Überweisung');
    await expect(page.getByRole('region', { name: 'Angebote' }).locator('article', { hasText: berth })).toHaveCount(0);
    // The contract as PDF/A, rendered by contract-pdf from the stored text (ADR 0047).
    const number = /LV-2027-\d{4}/.exec((await contract.locator('h3').textContent()) ?? '')![0];
    const pdf = await downloadContractPdf(page, contract, number);
    expect(pdf.pages.flat()).toContain(`Liegeplatzvertrag ${number}`);
    expect(pdf.pages.flat().join('\n')).toContain(`Liegeplatz: ${berth}`);
    expect(consoleErrors).toEqual([]);
  });

  test('an applicant declines in English and the admin offers the berth to the next applicant', async ({ page, consoleErrors }) => {
    test.setTimeout(90_000);
    const berth = uniqueName('P');
    const placeId = await createBerth(berth);
    expect((await apply('jan.devries@hafen.test', 'Jan', placeId, 'en')).status).toBe(200);
    const token = await adminToken();
    const app = await rest(token, `long_term_applications?select=id&email=eq.jan.devries@hafen.test&place_id=eq.${placeId}`);
    const sent = await rest(token, 'rpc/send_offer', {
      method: 'POST',
      body: { p_application_id: (app.body as { id: string }[])[0].id, p_place_id: placeId, p_season_id: await summer2027() },
    });
    expect(sent.status).toBe(200);

    await loginAs(page, 'customerEn');
    await page.goto('/en/account/long-time-place');
    const offer = page.getByRole('region', { name: 'Offers' }).locator('article', { hasText: berth });
    await expect(offer.getByTestId('contract-text')).toContainText(`Berth: ${berth}`);
    await expect(offer.getByTestId('contract-text')).toContainText('Total: €1,070.00');
    await offer.getByRole('button', { name: 'Decline offer' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Decline the offer?' });
    await dialog.getByLabel('Reason (optional)').fill('Too far from the jetty');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Offers' }).locator('article', { hasText: berth })).toHaveCount(0);

    await loginAs(page, 'admin');
    await page.goto('/en/account/admin/offers');
    const offers = page.getByRole('region', { name: 'Offers', exact: true });
    const declined = offers.locator('tr', { hasText: 'Too far from the jetty' });
    await expect(declined).toContainText('declined');
    await declined.getByRole('button', { name: 'Offer to the next applicant' }).click();
    await expect(declined.getByRole('button', { name: 'Offer to the next applicant' })).toHaveCount(0);
    await expect(offers.locator('tr', { hasText: berth }).filter({ hasText: 'open' })).toHaveCount(1);
    expect(consoleErrors).toEqual([]);
  });

  test('the waiting list and the berth link to the offer composer, opened on that berth (de)', async ({ page, consoleErrors }) => {
    test.setTimeout(90_000);
    const berth = uniqueName('Q');
    const placeId = await createBerth(berth);
    expect((await apply('kunde@hafen.test', 'Klaus', placeId, 'de')).status).toBe(200);
    const composer = page.getByRole('region', { name: 'Liegeplatz anbieten' });
    const opened = async () => {
      await expect(page).toHaveURL(new RegExp(`/account/admin/offers\\?place=${placeId}$`));
      // the first season not yet ended in which the berth is free, the berth, its candidates
      await expect(composer.getByLabel('Saison')).not.toHaveValue('');
      await expect(composer.getByLabel('Freier Liegeplatz')).toHaveValue(placeId);
      await expect(composer.locator('tr[data-candidate="kunde@hafen.test"]').first()).toBeVisible();
    };

    await page.goto(`/account/admin/applications?q=${berth}`);
    await page.getByRole('link', { name: 'Angebot vorbereiten für Klaus Seemann' }).click();
    await opened();

    await page.goto(`/account/admin/places/${placeId}/edit`);
    await page.getByRole('link', { name: `${berth} aus der Warteliste anbieten` }).click();
    await opened();
    expect(consoleErrors).toEqual([]);
  });

  test("the admin downloads a holder's contract as PDF from the contracts table (de)", async ({ page, consoleErrors }) => {
    test.setTimeout(90_000);
    const berth = uniqueName('V');
    const number = await holdBerth('customer', berth, await summer2027(), { length: 10, width: 4 });

    await page.goto('/account/admin/offers');
    const contracts = page.getByRole('region', { name: 'Verträge', exact: true });
    await contracts.getByLabel('Suche').fill(number);
    // The search is in the URL and the table shows this contract alone before its button is used.
    await expect(page).toHaveURL(new RegExp(`[?&]q=${number}`));
    await expect(contracts.locator('tbody tr')).toHaveCount(1);
    const row = contracts.locator(`tr[data-contract="${number}"]`);
    await expect(row).toContainText(berth);
    // The same PDF/A the holder downloads, in the contract's language (ADR 0047).
    const pdf = await downloadContractPdf(page, row, number);
    expect(pdf.pages.flat().join('\n')).toContain(`Liegeplatz: ${berth}`);
    await expect(row.getByRole('button', { name: `Vertrag als PDF (${number})` })).toBeEnabled();
    expect(consoleErrors).toEqual([]);
  });
});
