import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';
import { loginAs } from '../helpers/personas';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, euro, formClient, mailUrl, personaToken } from './booking-helpers.ts';
import { adminToken, createBerth, rest, uniqueName } from './admin-helpers.ts';
import { createAccount } from './admin-content-helpers.ts';
import { sessionInto } from './account-helpers.ts';
import { personas } from '../helpers/personas.ts';
import { E2E_APP_URL, E2E_CONTROL_URL } from './ports.ts';
import { staffFeeRow } from './long-term-helpers.ts';
import { CONTROL_PATH } from './control.ts';
import { addDaysIso, berlinToday, formatDay } from '../../src/lib/dates.ts';

/**
 * A long-term contract paid by SEPA direct debit (issue 42, docs/adr/0048-seasonal-fees-and-sepa.md,
 * 0049-payment-sandbox-sepa.md): the applicant accepts, gives the mandate on the payment sandbox's
 * page and comes back to the mandate, the instalments with their collection days and the
 * pre-notification e-mail; on the collection day the daily job debits the first instalment and
 * the sandbox settles it: paid (de), or failed and returned with the payment reversed and holder
 * and office e-mailed (en). The free berth, the application and the offer are set up over REST.
 *
 * The collection day is max(due day, today + sepa_prenotification_days (14)), set by the
 * database clock; no API role can move the clock, the setting or a fee's collect_on. Before it,
 * the daily job debits nothing. To reach it, a test asks the test server (tests/e2e/control.ts)
 * to let the pre-notification period pass for its own contract, as the stack test
 * (supabase/local/test/fees-sepa-functions.test.ts) does in SQL; the job is then called as the
 * scheduler calls it and the sandbox settles the debit after its pending period (3 s).
 */
/** Stripe's SEPA test IBANs (docs.stripe.com/testing): succeeds; fails; succeeds and is disputed (returned) at once. */
const IBAN = { succeeds: 'DE89370400440532013000', fails: 'DE62370400440532013001', returned: 'DE35370400440532013002' };
const SEASON_START = '2027-04-01';
/** The office's address for notices (private.app_settings harbour_email). */
const OFFICE = 'hafen@hafen-duesseldorf.de';
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

/** The text of the first e-mail to `to` that `matches` (subject and text), waiting up to 30 s. */
async function mailTo(to: string, what: string, matches: (m: { subject: string; text: string }) => boolean): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const res = await fetch(`${mailUrl}/api/messages?to=${encodeURIComponent(to)}`);
        const list = (await res.json()) as { subject: string; text?: string }[];
        text = list.map((m) => ({ subject: m.subject, text: m.text ?? '' })).find(matches)?.text ?? '';
        return text !== '';
      },
      { timeout: 30_000, message: `${what} to ${to}` },
    )
    .toBe(true);
  return text;
}

/** The SEPA pre-notification to `to` about `reference` (the invoice e-mail sent on acceptance has the same subject). */
const prenotification = (to: string, reference: string) =>
  mailTo(
    to,
    `the pre-notification of ${reference}`,
    (m) => m.subject.includes(reference) && /Vorabankündigung|pre-notification/.test(m.text),
  );

/** The holder accepts the offer over REST (2 instalments, direct debit); answers the contract number. */
async function acceptOverRest(offerId: string, who: { email: string; password: string }): Promise<string> {
  const token = await personaToken(who.email, who.password);
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
  return ((await accepted.json()) as { contract_number: string }).contract_number;
}

/** On the holder's contracts page: gives the mandate for the contract on `berth` and waits until the webhook stored it. */
async function mandateFor(page: Page, locale: 'de' | 'en', berth: string, iban: string) {
  const de = locale === 'de';
  await page.goto(de ? '/account/long-time-place' : '/en/account/long-time-place');
  const contract = page.getByRole('region', { name: de ? 'Meine Verträge' : 'My contracts' }).locator('article', { hasText: berth });
  await contract.getByRole('button', { name: de ? 'Lastschriftmandat erteilen' : 'Give direct debit mandate' }).click();
  await giveMandate(page, locale, iban);
  await page.waitForURL((url) => url.origin === E2E_APP_URL && url.pathname.endsWith('/account/long-time-place'));
  const stored = de ? /SEPA-Lastschriftmandat \S+ für die IBAN endend auf/ : /SEPA direct debit mandate \S+ for the IBAN ending in/;
  await expect(async () => {
    await page.reload();
    await expect(contract).toContainText(stored, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** The pre-notification period of `reference` has passed (tests/e2e/control.ts): its first instalment is due for collection today. */
async function collectionDayHasCome(reference: string) {
  const res = await fetch(`${E2E_CONTROL_URL}${CONTROL_PATH}?contract=${encodeURIComponent(reference)}`, { method: 'POST' });
  expect(res.status, `collection day of ${reference}: ${await res.clone().text()}`).toBe(200);
}

/** The daily job as the scheduler calls it (private.request_fee_collection: the anon key). */
async function runDailyCollection(): Promise<{ created: number }> {
  const res = await fetch(`${apiUrl}/functions/v1/collect-fees`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'database' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { created: number };
}

/** The instalments of the holder's contract `reference` with their ledger rows, read over REST as the holder. */
async function feesOf(who: { email: string; password: string }, reference: string) {
  const token = await personaToken(who.email, who.password);
  const res = await fetch(
    `${apiUrl}/rest/v1/long_term_fees?select=id,instalment,gross_cents,debit_state,payment_intent,payments(id,kind,amount_cents,refund_of,note)&reference=eq.${reference}&order=instalment`,
    { headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}` } },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as {
    id: string;
    instalment: number;
    gross_cents: number;
    debit_state: string | null;
    payment_intent: string | null;
    payments: { id: string; kind: string; amount_cents: number; refund_of: string | null; note: string }[];
  }[];
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
    const reference = await acceptOverRest(offerId, personas.customerEn);

    await loginAs(page, 'customerEn');
    await mandateFor(page, 'en', berth, IBAN.fails);
    const contract = page.getByRole('region', { name: 'My contracts' }).locator('article', { hasText: berth });
    await expect(contract).toContainText(/SEPA direct debit mandate \S+ for the IBAN ending in 3001/);
    await prenotification(personas.customerEn.email, reference);

    // The daily job debits nothing of this contract before its announced day (other tests' fees
    // may be due right now: the count is not this test's).
    await runDailyCollection();
    expect((await feesOf(personas.customerEn, reference)).map((f) => [f.debit_state, f.payment_intent])).toEqual([
      [null, null],
      [null, null],
    ]);
    await page.reload();
    const rows = page.getByRole('region', { name: `Fees of contract ${reference}` }).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(`Collected on ${formatDay(firstCollection(), 'en')}`);
    await expect(rows.nth(0)).toContainText('open');
    await expect(rows.nth(1)).toContainText('open');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('the first instalment on its collection day', () => {
  test('de: the daily job debits it, the sandbox settles the debit, and holder and office see it paid', async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    const holder = await createAccount('sepa-paid', 'Klara', 'Seemann', 'de');
    const berth = uniqueName('P');
    const reference = await acceptOverRest(await offerTo({ email: holder.email, first: 'Klara', locale: 'de' }, berth), holder);
    await sessionInto(page, holder.email, holder.password);
    await mandateFor(page, 'de', berth, IBAN.succeeds);
    await prenotification(holder.email, reference);
    const rows = page.getByRole('region', { name: `Gebühren zum Vertrag ${reference}` }).locator('tbody tr');
    await expect(rows.nth(0)).toContainText(`Einzug am ${formatDay(firstCollection(), 'de')}`);

    await collectionDayHasCome(reference);
    await page.reload();
    await expect(rows.nth(0)).toContainText(`Einzug am ${formatDay(berlinToday(), 'de')}`);
    await runDailyCollection();
    // The sandbox keeps the debit pending (3 s); then the bank pays and the webhook records it.
    await expect(async () => {
      await page.reload();
      await expect(rows.nth(0)).toContainText('bezahlt', { timeout: 2_000 });
    }).toPass({ timeout: 45_000 });
    await expect(rows.nth(1)).toContainText('offen');
    const [first, second] = await feesOf(holder, reference);
    expect(first.payments).toEqual([
      { id: expect.any(String), kind: 'payment', amount_cents: first.gross_cents, refund_of: null, note: 'sepa_debit' },
    ]);
    expect(second.payments).toEqual([]);

    // The office's fees page shows it paid.
    await loginAs(page, 'harbour');
    await page.goto('/account/admin/fees');
    await expect(page.getByRole('heading', { level: 1, name: 'Liegeplatzgebühren' })).toBeVisible();
    const row = await staffFeeRow(page, first.id, 'Nächste Seite');
    await expect(row).toContainText(`${reference} 1/2`);
    await expect(row).toContainText('bezahlt');
    await expect(row).toHaveAttribute('data-state', 'paid');
    expect(consoleErrors).toEqual([]);
  });

  test('en: a failing IBAN fails the debit, a disputed one is returned and its payment reversed; holder and office are e-mailed, the fees page shows both', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(150_000);
    const holder = await createAccount('sepa-failed', 'Jan', 'Seemann', 'en');
    const cases = [
      { iban: IBAN.fails, berth: uniqueName('F'), reference: '' },
      { iban: IBAN.returned, berth: uniqueName('R'), reference: '' },
    ];
    for (const c of cases)
      c.reference = await acceptOverRest(await offerTo({ email: holder.email, first: 'Jan', locale: 'en' }, c.berth), holder);
    await sessionInto(page, holder.email, holder.password);
    for (const c of cases) {
      await mandateFor(page, 'en', c.berth, c.iban);
      await prenotification(holder.email, c.reference);
      await collectionDayHasCome(c.reference);
    }
    await runDailyCollection();

    // The holder's account: the first instalment of each is open again as a failed debit.
    await page.goto('/en/account/long-time-place');
    for (const c of cases) {
      const rows = page.getByRole('region', { name: `Fees of contract ${c.reference}` }).locator('tbody tr');
      await expect(async () => {
        await page.reload();
        await expect(rows.nth(0)).toContainText('direct debit failed', { timeout: 2_000 });
      }).toPass({ timeout: 45_000 });
      await expect(rows.nth(1)).toContainText('open');
    }

    // The ledger: the failed debit never paid anything; the returned one is paid and reversed by a new row.
    const [failed] = await feesOf(holder, cases[0].reference);
    expect(failed.payments).toEqual([]);
    await expect.poll(async () => (await feesOf(holder, cases[1].reference))[0].payments.length, { timeout: 30_000 }).toBe(2);
    const [returned] = await feesOf(holder, cases[1].reference);
    const payment = returned.payments.find((p) => p.kind === 'payment')!;
    expect(payment).toMatchObject({ amount_cents: returned.gross_cents, refund_of: null });
    expect(returned.payments.find((p) => p.kind === 'refund')).toMatchObject({
      amount_cents: returned.gross_cents,
      refund_of: payment.id,
      note: expect.stringMatching(/^sepa_returned: /),
    });

    // The holder (in English) and the office (in German) are told, once per failed debit.
    for (const c of cases) {
      const holderMail = await mailTo(
        holder.email,
        `the failed debit of ${c.reference}`,
        (m) => m.subject.startsWith('Direct debit failed: invoice') && m.text.includes(`(contract ${c.reference})`),
      );
      expect(holderMail).toContain('was not honoured by your bank');
      expect(holderMail).toContain('The fee is open again.');
      const office = await mailTo(
        OFFICE,
        `the office's notice of ${c.reference}`,
        (m) => m.subject.startsWith('Lastschrift zurück') && m.subject.includes(`(${c.reference})`),
      );
      expect(office).toContain('Die Gebühr ist wieder offen');
    }

    // The office's fees page lists them first, returned, with the full amount open again.
    await loginAs(page, 'harbour');
    await page.goto('/en/account/admin/fees');
    await expect(page.getByRole('heading', { level: 1, name: 'Berth fees' })).toBeVisible();
    for (const [c, fee] of [
      [cases[0], failed],
      [cases[1], returned],
    ] as const) {
      const row = await staffFeeRow(page, fee.id, 'Next page');
      await expect(row).toContainText(`${c.reference} 1/2`);
      await expect(row).toContainText('direct debit returned (');
      await expect(row).toHaveAttribute('data-state', 'failed');
      await expect(row).toContainText(euro(fee.gross_cents, 'en'));
    }
    expect(consoleErrors).toEqual([]);
  });
});
