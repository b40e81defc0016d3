import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { loginAs } from '../helpers/personas';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, formClient, mailUrl, personaToken } from './booking-helpers.ts';
import { adminToken, createBerth, rest, uniqueName } from './admin-helpers.ts';
import { personas } from '../helpers/personas.ts';
import { E2E_APP_URL } from './ports.ts';
import { addDaysIso, berlinToday, formatDay } from '../../src/lib/dates.ts';

/**
 * A long-term contract paid by SEPA direct debit (issue 42, docs/adr/0048-seasonal-fees-and-sepa.md,
 * 0049-payment-sandbox-sepa.md): the applicant accepts, gives the mandate on the payment sandbox's
 * page and comes back to the mandate, the instalments with their collection days and the
 * pre-notification e-mail. The free berth, the application and the offer are set up over REST.
 *
 * The debit itself is not reached from here: the collection day is max(due day, today +
 * sepa_prenotification_days (14)), set by the database clock, and no API role can move the
 * clock, the setting or a fee's collect_on (supabase/local/test/fees-sepa-functions.test.ts
 * moves collect_on in SQL and proves debit -> paid and failing IBAN -> failed + e-mails).
 * What the browser test proves of the collection: the daily job, called as the scheduler calls
 * it, debits nothing before the announced day.
 */
const IBAN = { succeeds: 'DE89370400440532013000', fails: 'DE62370400440532013001' };
const SEASON_START = '2027-04-01';
/** The first instalment's collection day: its due day (Sommer 2027's first day), at least 14 days after the pre-notification. */
const firstCollection = () => [SEASON_START, addDaysIso(berlinToday(), 14)].sort()[1];

async function offerTo(who: { email: string; first: string; locale: 'de' | 'en' }, berth: string): Promise<string> {
  const placeId = await createBerth(berth);
  const applied = await fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json', ...formClient() },
    body: JSON.stringify({
      p_email: who.email,
      p_first_name: who.first,
      p_last_name: 'Seemann',
      p_boat: { name: `Boot ${who.first}`, length: 9.4, width: 3.2 },
      p_place_id: placeId,
      p_locale: who.locale,
    }),
  });
  expect(applied.status).toBe(200);
  const token = await adminToken();
  const app = await rest(token, `long_term_applications?select=id&email=eq.${who.email}&place_id=eq.${placeId}`);
  const season = await rest(token, 'seasons?select=id&name=eq.Sommer%202027');
  const sent = await rest(token, 'rpc/send_offer', {
    method: 'POST',
    body: {
      p_application_id: (app.body as { id: string }[])[0].id,
      p_place_id: placeId,
      p_season_id: (season.body as { id: string }[])[0].id,
    },
  });
  expect(sent.status).toBe(200);
  return (sent.body as { id: string }).id;
}

/** The mandate form of the sandbox's hosted page (setup mode), filled as the holder does. */
async function giveMandate(page: Page, locale: 'de' | 'en', iban: string) {
  const de = locale === 'de';
  await expect(
    page.getByRole('heading', { name: de ? 'SEPA-Lastschriftmandat erteilen' : 'Set up a SEPA Direct Debit mandate' }),
  ).toBeVisible();
  await page.getByLabel(de ? 'Name der Kontoinhaberin / des Kontoinhabers' : /account holder/i).fill('Klaus Seemann');
  await page.getByLabel('IBAN').fill(iban);
  await page.getByLabel(de ? 'Ich erteile das SEPA-Lastschriftmandat.' : 'I accept the SEPA Direct Debit mandate.').check();
  await page.getByRole('button', { name: de ? 'Mandat erteilen' : 'Accept mandate' }).click();
}

/** The SEPA pre-notification to `to` about `reference` (the invoice e-mail sent on acceptance has the same subject). */
async function prenotification(to: string, reference: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const res = await fetch(`${mailUrl}/api/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as { subject: string; text?: string }[];
        text = list.find((m) => m.subject.includes(reference) && /Vorabankündigung|pre-notification/.test(m.text ?? ''))?.text ?? '';
        return text !== '';
      },
      { timeout: 30_000, message: `the pre-notification of ${reference} to ${to}` },
    )
    .toBe(true);
  return text;
}

test.describe('long-term contract by SEPA direct debit', () => {
  test.use({ persona: 'customer' });

  test('the applicant accepts with SEPA in 2 instalments, gives the mandate on the sandbox and sees it with the collection days (de)', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const berth = uniqueName('S');
    await offerTo({ email: personas.customer.email, first: 'Klaus', locale: 'de' }, berth);

    await page.goto('/account/long-time-place');
    const offer = page.getByRole('region', { name: 'Angebote' }).locator('article', { hasText: berth });
    await offer.getByLabel('Zahlung', { exact: true }).selectOption('2');
    await offer.getByLabel('Zahlungsart').selectOption('sepa_debit');
    await expect(offer.getByTestId('contract-text')).toContainText('in 2 Raten');
    await offer.getByRole('checkbox').check();
    await offer.getByRole('button', { name: 'Zahlungspflichtigen Vertrag schließen' }).click();
    const contract = page.getByRole('region', { name: 'Meine Verträge' }).locator('article', { hasText: berth });
    await expect(contract).toContainText('in 2 Raten, SEPA-Lastschrift');
    const reference = (await contract.getByRole('heading').textContent())!.match(/LV-2027-\d{4}/)![0];

    await contract.getByRole('button', { name: 'Lastschriftmandat erteilen' }).click();
    await giveMandate(page, 'de', IBAN.succeeds);
    // Back on the contract's page (the set-up's success_url); the webhook stores the mandate asynchronously.
    await page.waitForURL((url) => url.origin === E2E_APP_URL && url.pathname.endsWith('/account/long-time-place'));
    await expect(async () => {
      await page.reload();
      await expect(contract).toContainText(/SEPA-Lastschriftmandat \S+ für die IBAN endend auf 3000/, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    const mandate = (await contract.textContent())!.match(/SEPA-Lastschriftmandat (\S+) für die IBAN/)![1];
    await expect(contract.getByRole('button', { name: 'Lastschriftmandat erteilen' })).toHaveCount(0);

    // Both instalments with their invoice numbers, collection days and state.
    const fees = page.getByRole('region', { name: `Gebühren zum Vertrag ${reference}` });
    const rows = fees.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    for (const i of [0, 1]) {
      const row = rows.nth(i);
      await expect(row).toContainText(`${i + 1}/2`);
      await expect(row.locator('td').first()).toHaveText(/^\S+-\d+/);
      await expect(row).toContainText(/Einzug am \S+, \d+\. \S+ \d{4}/);
      await expect(row).toContainText('offen');
    }
    await expect(rows.nth(0)).toContainText(`Einzug am ${formatDay(firstCollection(), 'de')}`);

    const mail = await prenotification(personas.customer.email, reference);
    expect(mail).toContain('Gläubiger-Identifikationsnummer: DE98ZZZ09999999999');
    expect(mail).toContain(`Mandatsreferenz: ${mandate}`);
    expect(mail).toContain('IBAN endend auf 3000');
    expect(mail).toContain(`Einzug am ${firstCollection().split('-').reverse().join('.')}`);
    expect(consoleErrors).toEqual([]);
  });

  test('with the failing IBAN the mandate is taken, and the daily collection debits nothing before the announced day (en)', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const berth = uniqueName('T');
    const offerId = await offerTo({ email: personas.customerEn.email, first: 'Jan', locale: 'en' }, berth);
    // Accepted over REST as the holder (the acceptance in the browser is the first test's).
    const token = await personaToken(personas.customerEn.email, personas.customerEn.password);
    const headers = { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const text = await fetch(`${apiUrl}/rest/v1/rpc/offer_contract`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ p_offer_id: offerId, p_payment_plan: 2, p_payment_method: 'sepa_debit' }),
    });
    const [{ contract_sha256 }] = (await text.json()) as { contract_sha256: string }[];
    const accepted = await fetch(`${apiUrl}/rest/v1/rpc/accept_offer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ p_offer_id: offerId, p_payment_plan: 2, p_payment_method: 'sepa_debit', p_contract_sha256: contract_sha256 }),
    });
    expect(accepted.status).toBe(200);
    const { contract_number: reference } = (await accepted.json()) as { contract_number: string };

    await loginAs(page, 'customerEn');
    await page.goto('/en/account/long-time-place');
    const contract = page.getByRole('region', { name: 'My contracts' }).locator('article', { hasText: berth });
    await contract.getByRole('button', { name: 'Give direct debit mandate' }).click();
    await giveMandate(page, 'en', IBAN.fails);
    await page.waitForURL((url) => url.origin === E2E_APP_URL && url.pathname.endsWith('/account/long-time-place'));
    await expect(async () => {
      await page.reload();
      await expect(contract).toContainText(/SEPA direct debit mandate \S+ for the IBAN ending in 3001/, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await prenotification(personas.customerEn.email, reference);

    // The daily job as the scheduler calls it (private.request_fee_collection: the anon key).
    const collected = await fetch(`${apiUrl}/functions/v1/collect-fees`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'database' }),
    });
    expect(collected.status).toBe(200);
    expect(await collected.json()).toMatchObject({ created: 0 });
    await page.reload();
    const rows = page.getByRole('region', { name: `Fees of contract ${reference}` }).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(`Collected on ${formatDay(firstCollection(), 'en')}`);
    await expect(rows.nth(0)).toContainText('open');
    await expect(rows.nth(1)).toContainText('open');
    expect(consoleErrors).toEqual([]);
  });
});
