import { expect, test } from '../helpers/app-test';
import { loginAs } from '../helpers/personas';
import { adminToken, rest, uniqueName } from './admin-helpers.ts';
import { addSeason, holdBerth } from './long-term-helpers.ts';

/**
 * Renewal and notice (issue 42 item 6, docs/adr/0052-renewal-and-notice.md). The contracts the
 * journeys start from are made over REST as the real path makes them (long-term-helpers.ts);
 * the journeys are the admin's renewal run and the holder's notice.
 */
test.describe('long-term renewal and notice', () => {
  test.use({ persona: 'admin' });

  test('the admin previews and confirms the renewal of two holders, one with a price change (de)', async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    // A year-round season running now whose notice deadline (90 days before its end) has passed,
    // the next one, and a price change from the next season: by m², 37,50 € (10 × 4 m: unchanged;
    // 8 × 3 m: 900,00 € instead of 1.200,00 € for the berth).
    const year = await addSeason('Jahr 2026', 'year_round', '2026-01-01', '2026-12-31');
    await addSeason('Jahr 2027', 'year_round', '2027-01-01', '2027-12-31');
    const price = await rest(await adminToken(), 'rpc/add_long_term_price', {
      method: 'POST',
      body: {
        p_season_kind: 'year_round',
        p_basis: 'square_metre',
        p_gross_cents: 3750,
        p_vat_rate: 19,
        p_electricity_gross_cents: 18000,
        p_electricity_vat_rate: 19,
        p_valid_from: '2027-01-01',
      },
    });
    expect(price.status).toBe(200);
    const a = uniqueName('RA');
    const b = uniqueName('RB');
    const first = await holdBerth('customer', a, year, { length: 10, width: 4 });
    const second = await holdBerth('customerEn', b, year, { length: 8, width: 3 });

    await page.goto('/account/admin/offers');
    const section = page.getByRole('region', { name: 'Verlängerung' });
    await section.getByRole('button', { name: 'Vorschau' }).click();
    await expect(section.getByRole('alert')).toContainText('Bitte eine Saison wählen.');
    await section.getByLabel('Saison, die endet').selectOption({ label: 'Jahr 2026' });
    await section.getByRole('button', { name: 'Vorschau' }).click();
    const preview = section.getByTestId('renewal-preview');
    await expect(preview.locator('caption')).toHaveText('Vorschau: Verlängerung in Jahr 2027');
    const rowA = preview.locator(`tr[data-renewal="${first}"]`);
    const rowB = preview.locator(`tr[data-renewal="${second}"]`);
    await expect(rowA).toContainText('1.680,00 €');
    await expect(rowA).toContainText('wird verlängert');
    await expect(rowA).not.toContainText('Preis geändert');
    await expect(rowB).toContainText('1.380,00 €');
    await expect(rowB).toContainText('1.080,00 €');
    await expect(rowB).toContainText('Preis geändert');
    // The price change was added today, after the holders' notice deadline (2 October 2026): flagged.
    await expect(rowB).toContainText('erst nach der Kündigungsfrist angekündigt');

    await section.getByRole('button', { name: /^\d+ Verträge verlängern$/ }).click();
    const dialog = page.getByRole('alertdialog', { name: /Verträge in Jahr 2027 verlängern\?/ });
    await dialog.getByRole('button', { name: 'Verlängern' }).click();
    await expect(dialog).toBeHidden();
    await expect(section.getByRole('status')).toContainText('Verträge verlängert');
    await expect(rowA).toContainText('verlängert');
    await expect(rowA).not.toContainText('wird verlängert');
    await expect(rowB).not.toContainText('wird verlängert');
    await expect(section.getByRole('button', { name: '0 Verträge verlängern' })).toBeDisabled();

    // Each holder has the next season's contract (the new price for the second).
    // Two reads, not an embed: PostgREST resolves no embed over a one-to-one self-reference
    // (renews_contract_id is unique; its findRel leaves such relationships out), and the local
    // stack answers as it does.
    const admin = await adminToken();
    const numbers = await rest(admin, `contracts?select=id,contract_number&contract_number=in.(${first},${second})`);
    const numberOf = new Map((numbers.body as { id: string; contract_number: string }[]).map((c) => [c.id, c.contract_number]));
    const contracts = await rest(
      admin,
      `contracts?select=gross_cents,payment_plan,renews_contract_id&renews_contract_id=in.(${[...numberOf.keys()].join(',')})`,
    );
    const renewed = (contracts.body as { gross_cents: number; payment_plan: number; renews_contract_id: string }[]).map((c) => ({
      ...c,
      renews: { contract_number: numberOf.get(c.renews_contract_id)! },
    }));
    expect(renewed.map((c) => [c.renews.contract_number, c.gross_cents, c.payment_plan]).sort()).toEqual(
      [
        [first, 168000, 2],
        [second, 108000, 2],
      ].sort(),
    );
    expect(consoleErrors).toEqual([]);
  });

  test('a holder gives notice before the deadline (en)', async ({ page, consoleErrors }) => {
    test.setTimeout(90_000);
    const winter = (await rest(await adminToken(), 'seasons?select=id&name=eq.Winter%202027/28')).body as { id: string }[];
    const berth = uniqueName('RN');
    const number = await holdBerth('customerEn', berth, winter[0].id, { length: 8, width: 3 });

    await loginAs(page, 'customerEn');
    await page.goto('/en/account/long-time-place');
    const card = page.getByRole('region', { name: 'My contracts' }).locator('article', { hasText: number });
    await expect(card).toContainText(
      'Without notice the contract is renewed for the next season. You can give notice until Sat, 1 Jan 2028',
    );
    await card.getByRole('button', { name: 'Give notice' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Give notice of contract ${number}?` });
    await dialog.getByRole('button', { name: 'Give notice now' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole('status')).toContainText(
      'You gave notice of this contract. It ends on Fri, 31 Mar 2028 and is not renewed.',
    );
    await expect(card).toContainText('noticed');
    await expect(card.getByRole('button', { name: 'Give notice' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
