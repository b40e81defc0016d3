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
import { rest } from './rest-helpers.ts';

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
