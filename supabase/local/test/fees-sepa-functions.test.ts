/**
 * Seasonal fees by SEPA direct debit through the edge functions (create-sepa-setup,
 * stripe-webhook, collect-fees; docs/adr/0048-seasonal-fees-and-sepa.md) against the local
 * stack and its payment sandbox (ADR 0049), offline: a holder with direct debit fees starts the
 * set-up, accepts the mandate on the sandbox's page as a browser posts it, the webhook stores
 * the mandate and the pre-notification goes out; on the collection day collect-fees creates the
 * off-session debit once, and the sandbox's events make the instalment paid (Stripe's
 * succeeding test IBAN) or leave it open with the holder and the office told (the failing one).
 * The fees are created through SQL for a real contract (long_term_fees.contract_id references
 * public.contracts): an accepted application, its accepted offer and the contract row inserted
 * as accept_offer stores them but without its fees, which create_season_fees then makes with
 * this test's price; the collection day is moved to today through SQL (it lies at least 14 days
 * after the pre-notification).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses } from './harness/offline.ts';
import { callFunction, clientOptions, until } from './harness/payments.ts';
import type { Stack } from '../src/stack.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const HOLDER = { id: 'a0000000-0000-4000-8000-000000000003', email: 'kunde@hafen.test', password: 'Kunde1234' };
const OTHER = { email: 'anna.schmidt@hafen.test', password: 'Kunde1234' };
/** Stripe's SEPA test IBANs (docs.stripe.com/testing): one that succeeds, one that fails. */
const IBAN = { succeeds: 'DE89370400440532013000', fails: 'DE62370400440532013001' };
const WEBHOOK_MS = 60_000;

for (const engine of engines()) {
  const suite = `seasonal fees by SEPA direct debit on ${engine.name}`;
  describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
    let stack: Stack;
    let holderToken: string;
    let otherToken: string;
    const q = async <T = Record<string, unknown>>(sql: string, params?: unknown[]) => (await stack.db.query<T>(sql, params)).rows;

    const signIn = async (who: { email: string; password: string }) => {
      const client = createClient(stack.url, stack.keys.anonKey, clientOptions);
      const { data, error } = await client.auth.signInWithPassword(who);
      if (error) throw error;
      return data.session!.access_token;
    };

    /** A contract (numbered `reference`) and its fees as private.create_season_fees makes them (2 instalments, direct debit). */
    async function contractWithFees(reference: string): Promise<string> {
      const contract = randomUUID();
      await q(
        `with s as (select * from public.seasons order by starts_on desc limit 1),
              b as (select '{"name":"Testboot","length":10,"width":3}'::jsonb as boat),
              p as (insert into public.places (name, width, length) values ('FN-' || $2, 4, 12) returning id),
              a as (insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, boat, status, answered_at)
                    select p.id, $3, $4, 'Klaus', 'Kunde', b.boat, 'accepted', now() from p, b returning id),
              o as (insert into public.berth_offers (place_id, season_id, application_id, user_id, email, locale, boat, lines, gross_cents,
                                                     deadline, status, answered_at)
                    select p.id, s.id, a.id, $3, $4, 'de', b.boat, '[]', 120001, s.starts_on, 'accepted', now() from p, s, a, b returning id)
         insert into public.contracts (id, contract_number, offer_id, user_id, holder_id, place_id, season_id, starts_on, ends_on, email,
                                       locale, holder, boat, lines, gross_cents, payment_plan, payment_method, terms_version,
                                       contract_text, contract_sha256, accepted_at, notice_deadline)
         select $1, $2, o.id, $3, gen_random_uuid(), p.id, s.id, s.starts_on, s.ends_on, $4, 'de',
                jsonb_build_object('first_name', 'Klaus', 'last_name', 'Kunde', 'email', $4::text), b.boat, '[]', 120001, 2, 'sepa_debit',
                (select max(t.version) from public.contract_terms t), 'Vertrag ' || $2,
                encode(sha256(convert_to('Vertrag ' || $2, 'UTF8')), 'hex'), now(), s.ends_on - 90
           from o, p, s, b`,
        [contract, reference, HOLDER.id, HOLDER.email],
      );
      await q(
        `select private.create_season_fees($1, $2, $3, null, (select id from public.seasons order by starts_on desc limit 1),
           '[{"code":"berth_fee","description":"Liegeplatz","description_en":"Berth","vat_rate":19,"gross_cents":120001}]'::jsonb,
           120001, 2, 'sepa_debit')`,
        [contract, reference, HOLDER.id],
      );
      return contract;
    }

    /** The hosted page's form, filled and posted as a browser does (no redirect followed). */
    async function acceptMandate(url: string, iban: string) {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const res = await fetch(url, {
        method: 'POST',
        body: new URLSearchParams({ name: 'Klaus Kunde', iban, mandate: 'accepted' }),
        redirect: 'manual',
        headers: { 'accept-language': 'de', 'user-agent': 'Mozilla/5.0 (Hafen test)' },
      });
      expect(res.status).toBe(303);
    }

    const fees = (contract: string) =>
      q<{ id: string; instalment: number; collect_on: string | null; state: string; debit_state: string | null; balance_cents: string }>(
        `select id::text, instalment, collect_on::text, state, debit_state, balance_cents::text from public.long_term_fee_status
          where contract_id = $1 order by instalment`,
        [contract],
      );

    /** Sets a contract up for collection: mandate through the page, first instalment due today. */
    async function mandated(contract: string, iban: string) {
      const started = await callFunction(stack, 'create-sepa-setup', { token: holderToken, body: { contract_id: contract } });
      expect(started.status).toBe(200);
      await acceptMandate(started.body.url as string, iban);
      await until(
        () => fees(contract),
        (rows) => rows.every((r) => r.collect_on !== null),
        WEBHOOK_MS,
        200,
      );
      await q(`update public.long_term_fees set collect_on = private.berlin_date(now()) where contract_id = $1 and instalment = 1`, [
        contract,
      ]);
    }

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
      holderToken = await signIn(HOLDER);
      otherToken = await signIn(OTHER);
    }, 180_000);

    afterAll(async () => {
      await stack?.close();
    });

    it('create-sepa-setup answers bad or foreign requests with 4xx', async () => {
      const contract = await contractWithFees('LV-FN-0001');
      expect((await callFunction(stack, 'create-sepa-setup', { body: { contract_id: contract } })).status).toBe(401);
      expect(await callFunction(stack, 'create-sepa-setup', { token: holderToken, body: { contract_id: 'x' } })).toEqual({
        status: 400,
        body: { error: 'invalid_request' },
      });
      expect(await callFunction(stack, 'create-sepa-setup', { token: otherToken, body: { contract_id: contract } })).toEqual({
        status: 404,
        body: { error: 'fee_not_found' },
      });
    });

    it('the mandate is stored from the webhook, the pre-notification names it, and the first instalment is debited once and paid', async () => {
      const contract = await contractWithFees('LV-FN-0002');
      await mandated(contract, IBAN.succeeds);
      const [mandate] = await q<{ reference: string; iban_last4: string; stripe_mandate: string; accepted: string }>(
        `select reference, iban_last4, stripe_mandate, customer_acceptance ->> 'type' as accepted from public.sepa_mandates where contract_id = $1`,
        [contract],
      );
      expect(mandate).toMatchObject({ iban_last4: '3000', accepted: 'online' });
      expect(mandate.stripe_mandate).toMatch(/^mandate_/);
      const [notice] = await q<{ body_text: string; attachments: unknown[] }>(
        `select body_text, attachments from public.outbox where kind = 'sepa_prenotification' and body_text like $1`,
        [`%${mandate.reference}%`],
      );
      expect(notice.body_text).toContain('DE98ZZZ09999999999');
      expect(notice.attachments).toHaveLength(2);

      const first = await callFunction(stack, 'collect-fees', { body: {} });
      expect(first).toMatchObject({ status: 200, body: { created: 1 } });
      const again = await callFunction(stack, 'collect-fees', { body: {} });
      expect(again).toMatchObject({ status: 200, body: { created: 0 } });

      const [paid] = await until(
        () => fees(contract),
        (rows) => rows[0].state === 'paid',
        WEBHOOK_MS,
        200,
      );
      expect(paid).toMatchObject({ state: 'paid', debit_state: 'succeeded', balance_cents: '0' });
      const ledger = await q<{ kind: string; method: string; amount_cents: number }>(
        `select kind, method::text, amount_cents from public.payments where fee_id = $1`,
        [paid.id],
      );
      expect(ledger).toEqual([{ kind: 'payment', method: 'online', amount_cents: 60001 }]);
    }, 180_000);

    it('a failing IBAN leaves the instalment open as a failed debit and tells the holder and the office', async () => {
      const contract = await contractWithFees('LV-FN-0003');
      await mandated(contract, IBAN.fails);
      expect(await callFunction(stack, 'collect-fees', { body: {} })).toMatchObject({ status: 200, body: { created: 1 } });
      const [failed] = await until(
        () => fees(contract),
        (rows) => rows[0].state === 'failed',
        WEBHOOK_MS,
        200,
      );
      expect(failed).toMatchObject({ state: 'failed', debit_state: 'failed', balance_cents: '60001' });
      expect(await q(`select 1 from public.payments where fee_id = $1`, [failed.id])).toEqual([]);
      const mails = await q<{ recipient: string }>(
        `select recipient from public.outbox where kind = 'fee_debit_failed' and body_text like '%LV-FN-0003%' order by id`,
      );
      // the holder in their language, and the office
      expect(mails).toHaveLength(2);
      expect(mails.map((m) => m.recipient)).toContain(HOLDER.email);
    }, 180_000);
  });
}
