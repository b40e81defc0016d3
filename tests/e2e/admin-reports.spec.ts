import { readFile } from 'node:fs/promises';
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, euro, personaToken } from './booking-helpers.ts';
import { fillDate, expectDate } from '../helpers/dates';
import { adminToken, rest, uniqueName } from './admin-helpers.ts';
import { addSeason, holdBerth, staffFeeRow } from './long-term-helpers.ts';

/** A report function through the REST API, as the app calls it. */
async function report<T>(name: string, from: string, to: string, token: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ p_from: from, p_to: to }),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The season supabase/seeds/100_operations.sql fills: April to October of the last season begun at least seven months ago. */
function seededSeason() {
  const berlin = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit' }).format(new Date());
  const [y, m] = berlin.split('-').map(Number) as [number, number];
  const year = m > 7 ? y : y - 1;
  return { from: `${year}-04-01`, to: `${year}-10-31` };
}

interface RevenueRow {
  month: string;
  kind: string;
  orders: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
  paid_gross_cents: number;
}
interface CountryRow {
  country: string | null;
  orders: number;
  guests: number;
  nights: number;
  gross_cents: number;
}
interface CodeRow {
  code: string;
  orders: number;
  nights: number;
  discount_cents: number;
  net_cents: number;
}
interface FeeRow {
  month: string;
  fees: number;
  net_cents: number;
  vat_cents: number;
  gross_cents: number;
  paid_gross_cents: number;
}
interface CheckInRow {
  month: string;
  arrivals: number;
  checked_in: number;
  check_in_percent: number;
}

const kindDe: Record<string, string> = { overnight: 'Übernachtung', day: 'Tagesliegeplatz', fair: 'Messe' };
const int = (n: number, locale: 'de' | 'en' = 'de') => new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE').format(Number(n));
const cents = (n: number | string) => Number(n);

test.describe('admin reports', () => {
  test.use({ persona: 'admin' });

  test('show the seeded season exactly as the report functions compute it, to the cent', async ({ page, consoleErrors }) => {
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    const { from, to } = seededSeason();
    const [revenue, countries, codes, checkIn] = await Promise.all([
      report<RevenueRow[]>('report_revenue', from, to, admin),
      report<CountryRow[]>('report_guests_by_country', from, to, admin),
      report<CodeRow[]>('report_sale_codes', from, to, admin),
      report<CheckInRow[]>('report_check_in_rate', from, to, admin),
    ]);
    for (const r of [revenue, countries, codes, checkIn]) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(revenue.body.length, 'the seed has sales in the season').toBeGreaterThan(6);

    await page.goto(`/account/admin/reports?from=${from}&to=${to}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Berichte');

    // Revenue: every row (kind, orders, net, VAT, gross, paid) and the totals.
    const revenueTable = page.getByRole('region', { name: 'Umsatz nach Monat und Art' }).getByRole('table');
    await expect(revenueTable.locator('tbody tr')).toHaveCount(revenue.body.length);
    const shown = await revenueTable
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(shown.map((r) => r.slice(1))).toEqual(
      revenue.body.map((r) => [
        kindDe[r.kind],
        int(r.orders),
        euro(cents(r.net_cents), 'de'),
        euro(cents(r.vat_cents), 'de'),
        euro(cents(r.gross_cents), 'de'),
        euro(cents(r.paid_gross_cents), 'de'),
      ]),
    );
    const total = (pick: (r: RevenueRow) => number | string) => revenue.body.reduce((s, r) => s + cents(pick(r)), 0);
    await expect(revenueTable.locator('tfoot td')).toHaveText([
      'Summe',
      '',
      int(total((r) => r.orders)),
      euro(
        total((r) => r.net_cents),
        'de',
      ),
      euro(
        total((r) => r.vat_cents),
        'de',
      ),
      euro(
        total((r) => r.gross_cents),
        'de',
      ),
      euro(
        total((r) => r.paid_gross_cents),
        'de',
      ),
    ]);
    // The chart says the same total, in its description (not colour alone).
    await expect(page.getByRole('img', { name: /Bruttoumsatz je Monat/ })).toHaveAccessibleName(
      new RegExp(
        `Summe brutto ${euro(
          total((r) => r.gross_cents),
          'de',
        ).replace(/[.]/g, '\\.')}`,
      ),
    );

    // Guests by country, sale codes, check-in rate.
    const countryTable = page.getByRole('region', { name: 'Gäste nach Land' }).getByRole('table');
    await expect(countryTable.locator('tbody tr')).toHaveCount(countries.body.length);
    for (const [i, r] of countries.body.entries()) {
      await expect(countryTable.locator('tbody tr').nth(i).locator('td')).toHaveText([
        r.country ?? 'Nicht angegeben',
        int(r.orders),
        int(r.guests),
        int(r.nights),
        euro(cents(r.gross_cents), 'de'),
      ]);
    }
    const codeTable = page.getByRole('region', { name: 'Nutzung der Aktionscodes' }).getByRole('table');
    await expect(codeTable.locator('tbody tr')).toHaveCount(codes.body.length);
    for (const [i, r] of codes.body.entries()) {
      await expect(codeTable.locator('tbody tr').nth(i).locator('td')).toHaveText([
        r.code,
        int(r.orders),
        int(r.nights),
        euro(cents(r.discount_cents), 'de'),
        euro(cents(r.net_cents), 'de'),
      ]);
    }
    expect(codes.body.find((c) => c.code === 'RHEIN5')?.orders, 'the seed used RHEIN5').toBeGreaterThan(0);
    const checkInTable = page.getByRole('region', { name: 'Check-in-Quote' }).getByRole('table');
    await expect(checkInTable.locator('tbody tr')).toHaveCount(checkIn.body.length);
    for (const [i, r] of checkIn.body.entries()) {
      await expect(checkInTable.locator('tbody tr').nth(i).locator('td').nth(1)).toHaveText(int(r.arrivals));
      await expect(checkInTable.locator('tbody tr').nth(i).locator('td').nth(2)).toHaveText(int(r.checked_in));
    }
    // Occupancy and average stay are there with their rows.
    await expect(
      page.getByRole('region', { name: 'Belegung nach Monat und Größenklasse' }).getByRole('table').locator('tbody tr'),
    ).not.toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Durchschnittliche Aufenthaltsdauer' }).getByRole('table')).toContainText('Übernachtung');
    expect(consoleErrors).toEqual([]);
  });

  test('the range lives in the URL, defaults to this year and refuses an end before the start', async ({ page }) => {
    await page.goto('/en/account/admin/reports');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reports');
    const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(new Date());
    const form = page.getByRole('form', { name: 'Period' });
    await expectDate(form.getByLabel('From'), `${year}-01-01`);
    await expectDate(form.getByLabel('Until (inclusive)'), `${year}-12-31`);
    await fillDate(form.getByLabel('From'), `${year}-03-01`);
    await fillDate(form.getByLabel('Until (inclusive)'), `${year}-02-01`);
    await form.getByRole('button', { name: 'Show' }).click();
    await expect(form.getByRole('alert')).toHaveText('The end date must not be before the start date');
    await fillDate(form.getByLabel('Until (inclusive)'), `${year}-05-31`);
    await form.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(new RegExp(`/en/account/admin/reports\\?from=${year}-03-01&to=${year}-05-31$`));
    // English money format in the tables.
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    const revenue = await report<RevenueRow[]>('report_revenue', `${year}-03-01`, `${year}-05-31`, admin);
    const gross = revenue.body.reduce((s, r) => s + cents(r.gross_cents), 0);
    await expect(page.getByRole('region', { name: 'Revenue by month and kind' }).locator('tfoot td').nth(5)).toHaveText(euro(gross, 'en'));
  });

  test('CSV export downloads the report rows with a UTF-8 BOM', async ({ page }) => {
    const admin = await personaToken(personas.admin.email, personas.admin.password);
    const { from, to } = seededSeason();
    const [revenue, countries] = await Promise.all([
      report<RevenueRow[]>('report_revenue', from, to, admin),
      report<CountryRow[]>('report_guests_by_country', from, to, admin),
    ]);
    await page.goto(`/account/admin/reports?from=${from}&to=${to}`);
    const region = page.getByRole('region', { name: 'Umsatz nach Monat und Art' });
    await expect(region.getByRole('table').locator('tbody tr')).toHaveCount(revenue.body.length);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      region.getByRole('button', { name: 'CSV exportieren: Umsatz nach Monat und Art' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`umsatz_${from}_${to}.csv`);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('Monat;Art;Buchungen;Netto;MwSt.;Brutto;Davon bezahlt');
    const money = (c: number | string) => (cents(c) / 100).toFixed(2).replace('.', ',');
    expect(lines.slice(1, -1)).toEqual(
      revenue.body.map((r) =>
        [
          r.month.slice(0, 7),
          kindDe[r.kind],
          r.orders,
          money(r.net_cents),
          money(r.vat_cents),
          money(r.gross_cents),
          money(r.paid_gross_cents),
        ].join(';'),
      ),
    );

    const countryRegion = page.getByRole('region', { name: 'Gäste nach Land' });
    const [second] = await Promise.all([
      page.waitForEvent('download'),
      countryRegion.getByRole('button', { name: /^CSV exportieren/ }).click(),
    ]);
    const text = (await readFile((await second.path())!)).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1).split('\r\n').slice(1, -1)).toEqual(
      countries.body.map((r) => [r.country ?? 'Nicht angegeben', r.orders, r.guests, r.nights, money(r.gross_cents)].join(';')),
    );
  });
});

test.describe('long-term fees in the back office', () => {
  test.use({ persona: 'admin' });

  test('en: a contract shows its balance in the contracts table and its instalments in the report, apart from the bookings', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(120_000);
    // A season of its own (no other test bills fees due in 2035), a contract in two instalments by
    // transfer; the office records the first in full and part of the second.
    const admin = await adminToken();
    const existing = (await rest(admin, 'seasons?select=id&name=eq.Sommer%202035')).body as { id: string }[];
    const season = existing[0]?.id ?? (await addSeason('Sommer 2035', 'summer', '2035-04-01', '2035-10-31'));
    const number = await holdBerth('customer', uniqueName('LF'), season, { length: 10, width: 3 });
    const fees = (await rest(admin, `long_term_fee_status?select=id,gross_cents&reference=eq.${number}&order=instalment`)).body as {
      id: string;
      gross_cents: number;
    }[];
    expect(fees).toHaveLength(2);
    const part = 12345;
    for (const [fee, amount] of [
      [fees[0], fees[0].gross_cents],
      [fees[1], part],
    ] as const) {
      const paid = await rest(admin, 'rpc/record_fee_transfer', {
        method: 'POST',
        body: { p_fee_id: fee.id, p_amount_cents: amount, p_request_key: crypto.randomUUID() },
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    }
    const owed = fees[1].gross_cents - part;

    // The contracts table: state, season and the balance owed now.
    await page.goto(`/en/account/admin/offers?q=${number}`);
    const row = page.locator(`tr[data-contract="${number}"]`);
    await expect(row.getByRole('rowheader')).toHaveText(number);
    await expect(row).toContainText('active');
    await expect(row).toContainText('Sommer 2035');
    await expect(row.getByTestId('contract-balance')).toHaveText(euro(owed, 'en'));
    await page.getByRole('button', { name: 'Balance', exact: true }).click();
    await expect(page).toHaveURL(/sort=balance_cents\.asc/);

    // The report: the instalments per due month, to the cent, as public.report_long_term_fees gives them.
    const from = '2035-01-01';
    const to = '2035-12-31';
    const report = await rest(admin, 'rpc/report_long_term_fees', { method: 'POST', body: { p_from: from, p_to: to } });
    expect(report.status).toBe(200);
    const rows = report.body as FeeRow[];
    // (Sommer 2035 is this spec's own season: only its contracts bill fees due then, this one at least.)
    expect(rows.map((r) => r.month)).toEqual(['2035-04-01', '2035-07-01']);
    expect(cents(rows[0].gross_cents)).toBeGreaterThanOrEqual(fees[0].gross_cents);
    expect(cents(rows[1].paid_gross_cents)).toBeGreaterThanOrEqual(part);
    await page.goto(`/en/account/admin/reports?from=${from}&to=${to}`);
    // Each section (its landmark and the table's scroll region share the title) says what it counts.
    await expect(page.locator('section#long-term-fees')).toContainText('Not included in the bookings’ revenue above');
    await expect(page.locator('section#revenue')).toContainText('The long-term holders’ berth fees are not included here');
    const table = page.getByRole('region', { name: 'Berth fees (long-term holders)' }).getByRole('table');
    await expect(table.locator('tbody tr')).toHaveCount(rows.length);
    for (const [i, r] of rows.entries()) {
      await expect(table.locator('tbody tr').nth(i).locator('td')).toHaveText([
        ['Apr 2035', 'Jul 2035'][i],
        int(r.fees, 'en'),
        euro(cents(r.net_cents), 'en'),
        euro(cents(r.vat_cents), 'en'),
        euro(cents(r.gross_cents), 'en'),
        euro(cents(r.paid_gross_cents), 'en'),
      ]);
    }
    const total = (pick: (r: FeeRow) => number | string) => rows.reduce((sum, r) => sum + cents(pick(r)), 0);
    await expect(table.locator('tfoot td').nth(4)).toHaveText(
      euro(
        total((r) => r.gross_cents),
        'en',
      ),
    );
    await expect(table.locator('tfoot td').nth(5)).toHaveText(
      euro(
        total((r) => r.paid_gross_cents),
        'en',
      ),
    );
    expect(consoleErrors).toEqual([]);
  });

  test('de: die Überzahlung einer Rate wird zurückgezahlt, höchstens der überzahlte Betrag', async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    // A season of its own (2036), a contract in two instalments by transfer; the holder pays
    // 50,00 € more than the first instalment.
    const admin = await adminToken();
    const existing = (await rest(admin, 'seasons?select=id&name=eq.Sommer%202036')).body as { id: string }[];
    const season = existing[0]?.id ?? (await addSeason('Sommer 2036', 'summer', '2036-04-01', '2036-10-31'));
    const number = await holdBerth('customer', uniqueName('LR'), season, { length: 10, width: 3 });
    const [fee] = (await rest(admin, `long_term_fee_status?select=id,gross_cents,invoice_number&reference=eq.${number}&order=instalment`))
      .body as { id: string; gross_cents: number; invoice_number: string }[];
    const paid = await rest(admin, 'rpc/record_fee_transfer', {
      method: 'POST',
      body: { p_fee_id: fee.id, p_amount_cents: fee.gross_cents + 5000, p_request_key: crypto.randomUUID() },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    await page.goto('/account/admin/fees');
    const row = await staffFeeRow(page, fee.id, 'Nächste Seite');
    await expect(row).toHaveAttribute('data-state', 'overpaid');
    await expect(row).toContainText(euro(-5000, 'de'));
    await row.getByRole('button', { name: 'Zurückzahlen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Überzahlung zurückzahlen' });
    const amount = dialog.getByLabel('Betrag (€)');
    await expect(amount).toHaveValue('50,00');
    // More than is overpaid: the form says so, nothing is recorded.
    await amount.fill('50,01');
    await dialog.getByRole('button', { name: 'Rückzahlung erfassen' }).click();
    await expect(dialog.getByText(`Höchstens der überzahlte Betrag (${euro(5000, 'de')}).`)).toBeVisible();
    await amount.fill('50,00');
    await dialog.getByLabel('Notiz (z. B. Kontoauszug)').fill('Rücküberweisung an den Inhaber');
    await dialog.getByRole('button', { name: 'Rückzahlung erfassen' }).click();
    await expect(page.getByRole('status')).toHaveText(`Rückzahlung von ${euro(5000, 'de')} zu ${fee.invoice_number} erfasst.`);
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute('data-state', 'paid');
    await expect(row.getByRole('button', { name: 'Zurückzahlen' })).toHaveCount(0);

    // The ledger: the payment and one refund row naming it, 50,00 €, by transfer.
    const ledger = (await rest(admin, `payments?select=kind,method,amount_cents,refund_of,note&fee_id=eq.${fee.id}&order=recorded_at`))
      .body as {
      kind: string;
      method: string;
      amount_cents: number;
      note: string | null;
    }[];
    expect(ledger.map((p) => [p.kind, p.method, p.amount_cents, p.note])).toEqual([
      ['payment', 'bank_transfer', fee.gross_cents + 5000, null],
      ['refund', 'bank_transfer', 5000, 'Rücküberweisung an den Inhaber'],
    ]);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('harbour staff (not admin)', () => {
  test.use({ persona: 'harbour' });

  test('gets the 404 page for the reports, and every report function refuses them', async ({ page, consoleErrors }) => {
    await page.goto('/account/admin/reports');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    await page.goto('/en/account/admin/reports?from=2026-01-01&to=2026-12-31');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Not Found');
    const staff = await personaToken(personas.harbour.email, personas.harbour.password);
    const customer = await personaToken(personas.customer.email, personas.customer.password);
    for (const name of [
      'report_occupancy',
      'report_revenue',
      'report_average_stay',
      'report_guests_by_country',
      'report_sale_codes',
      'report_check_in_rate',
    ]) {
      for (const token of [staff, customer]) {
        const res = await report<{ code: string; message: string }>(name, '2026-01-01', '2026-12-31', token);
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body.code).toBe('42501');
        expect(res.body.message).toBe('admin_only');
      }
      const anon = await report<{ code: string }>(name, '2026-01-01', '2026-12-31', DEMO_ANON_KEY);
      expect([401, 403, 404], `${name} as anon`).toContain(anon.status);
    }
    expect(consoleErrors.filter((e) => !/404|Failed to load resource/.test(e))).toEqual([]);
  });
});
