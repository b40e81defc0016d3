/**
 * The prices page (issue 40 item 2; docs/adr/0011-consumer-prices-with-vat.md): every price is
 * read from the database's one price list (public.price_list: berth tariffs and extras) and
 * shown as the total a consumer pays, including VAT with its rate (PAngV § 3), never "netto" or
 * "zzgl.". The test changes one list price through the API and sees it on the page: the parking
 * barrier key's deposit, which no other browser test reads (the specs run two at a time on one
 * database), and puts it back.
 */
import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { adminToken } from './admin-helpers.ts';
import { euro } from './booking-helpers.ts';
import { rest, rpc } from './rest-helpers.ts';

interface Entry {
  kind: string;
  code: string;
  price_cents: number;
  vat_rate: number;
}

test("the prices page shows the list's gross prices with their VAT rates, and a changed price at once (de)", async ({
  page,
  consoleErrors,
}) => {
  const token = await adminToken();
  const list = (await rest<Entry[]>('price_list?select=kind,code,price_cents,vat_rate', token)).data;
  const price = (code: string) => list.find((e) => e.code === code)!;
  expect(price('berth_night_per_metre')).toMatchObject({ price_cents: 238, vat_rate: 19 });
  const key = price('parking_key_deposit');

  await page.goto('/de/start/prices');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Preise');
  await expect(page.getByText('Alle Preise sind Gesamtpreise in Euro einschließlich der gesetzlichen Mehrwertsteuer.')).toBeVisible();
  for (const code of ['berth_night_per_metre', 'additional_costs_night', 'day_berth_per_metre', 'washing_machine', 'ice_2kg']) {
    const e = price(code);
    await expect(page.getByTestId(`price-${code}`)).toHaveText(`${euro(e.price_cents, 'de')}inkl. ${e.vat_rate} % MwSt.`);
  }
  await expect(page.getByTestId('price-boat_lift')).toContainText(`ab ${euro(price('boat_lift').price_cents, 'de')}`);
  await expect(page.getByTestId('price-parking_key_deposit')).toHaveText(`${euro(key.price_cents, 'de')}Pfand, ohne MwSt.`);
  // The worked example: 2 nights x 10 m x 2,38 € + 2 x 11,90 € = 71,40 €, of which 11,40 € VAT.
  await expect(page.getByTestId('price-example')).toHaveText(
    `Beispiel: Ein 9,4 m langes Boot (10 laufende Meter) für zwei Nächte kostet ${euro(7140, 'de')} (darin ${euro(1140, 'de')} MwSt.).`,
  );
  await expect(page.locator('main')).not.toContainText(/netto|zzgl\./i);
  expect(await seriousViolations(page)).toEqual([]);

  // An admin changes a price in the list: the page shows it on the next visit.
  const changed = key.price_cents + 550;
  try {
    const res = await rest<unknown[]>(`extras?code=eq.parking_key_deposit`, token, { method: 'PATCH', body: { price_cents: changed } });
    expect(res.status).toBeLessThan(300);
    await page.reload();
    await expect(page.getByTestId('price-parking_key_deposit')).toHaveText(`${euro(changed, 'de')}Pfand, ohne MwSt.`);
    // The parking page reads the same list.
    await page.goto('/de/service/park');
    await expect(page.getByTestId('price-parking_key_deposit')).toHaveText(`${euro(changed, 'de')}Pfand, ohne MwSt.`);
    await expect(page.locator('main')).not.toContainText(/netto|zzgl\./i);
  } finally {
    await rest(`extras?code=eq.parking_key_deposit`, token, { method: 'PATCH', body: { price_cents: key.price_cents } });
  }
  expect(consoleErrors).toEqual([]);
});

/**
 * The long-term prices (issue 42, docs/adr/0046-seasons-and-long-term-prices.md): per season kind
 * the price in force (basis, gross per unit incl. VAT, electricity flat rate), the seasons with
 * their dates, and an announced price with its first day, in German and in English. The test
 * announces a year-round price (append-only; no other browser test reads year-round prices).
 */
test('the prices page shows the long-term prices per season kind with the seasons and an announced price (de, en)', async ({
  page,
  consoleErrors,
}) => {
  const token = await adminToken();
  const added = await rpc<number>(
    'add_long_term_price',
    {
      p_season_kind: 'year_round',
      p_basis: 'running_metre',
      p_gross_cents: 16_050,
      p_vat_rate: 19,
      p_electricity_gross_cents: 19_000,
      p_electricity_vat_rate: 19,
      p_valid_from: '2031-01-01',
    },
    token,
  );
  expect(added.status).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/de/start/prices');
  const longTerm = page.getByTestId('long-term-prices');
  await expect(longTerm.getByRole('heading', { level: 2 })).toHaveText('Langzeitliegeplätze');
  const summer = longTerm.getByTestId('long-term-summer');
  await expect(summer.getByRole('heading', { level: 3 })).toHaveText('Sommersaison');
  await expect(summer.locator('dl')).toContainText('Liegeplatz pro laufendem Meter Bootslänge und Saison');
  await expect(summer.locator('dl')).toContainText(`${euro(9500, 'de')}inkl. 19 % MwSt.`);
  await expect(summer.locator('dl')).toContainText(`Strompauschale je Saison${euro(12_000, 'de')}inkl. 19 % MwSt.`);
  await expect(summer.getByTestId('long-term-season').filter({ hasText: 'Sommer 2027' })).toContainText('1. Apr. 2027');
  await expect(summer.getByTestId('long-term-season').filter({ hasText: 'Sommer 2027' })).toContainText('31. Okt. 2027');
  const winter = longTerm.getByTestId('long-term-winter');
  await expect(winter.locator('dl')).toContainText('Liegeplatz pro m² Bootsfläche (Länge × Breite) und Saison');
  await expect(winter.locator('dl')).toContainText(`${euro(1200, 'de')}inkl. 19 % MwSt.`);
  await expect(winter.getByTestId('long-term-season')).toContainText(['Winter 2027/28']);
  const yearRound = longTerm.getByTestId('long-term-year_round');
  await expect(yearRound.locator('dl')).toContainText(`${euro(15_000, 'de')}inkl. 19 % MwSt.`);
  // Its own announcement (other specs announce prices of their own in the same stack).
  await expect(yearRound.getByTestId('long-term-announced').filter({ hasText: '2031' })).toHaveText(
    `Angekündigt für Saisons ab Mi., 1. Jan. 2031: ${euro(16_050, 'de')} pro laufendem Meter, Strompauschale ${euro(19_000, 'de')} (inkl. 19 % MwSt.)`,
  );
  await expect(page.locator('main')).not.toContainText(/netto|zzgl\./i);
  // Readable at 390 px: nothing wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/en/start/prices');
  await expect(longTerm.getByRole('heading', { level: 2 })).toHaveText('Long-term berths');
  await expect(summer.getByRole('heading', { level: 3 })).toHaveText('Summer season');
  await expect(summer.locator('dl')).toContainText('Berth per running metre of boat length and season');
  await expect(summer.locator('dl')).toContainText(`${euro(9500, 'en')}incl. 19 % VAT`);
  await expect(summer.getByTestId('long-term-season').filter({ hasText: 'Summer 2027' })).toContainText('1 Apr 2027');
  await expect(winter.locator('dl')).toContainText('Berth per m² of boat area (length × width) and season');
  await expect(yearRound.getByTestId('long-term-announced').filter({ hasText: '2031' })).toHaveText(
    `Announced for seasons from Wed, 1 Jan 2031: ${euro(16_050, 'en')} per running metre, electricity flat rate ${euro(19_000, 'en')} (incl. 19 % VAT)`,
  );
  await expect(page.locator('main')).not.toContainText(/\bnet\b|excl\./i);
  expect(await seriousViolations(page)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
