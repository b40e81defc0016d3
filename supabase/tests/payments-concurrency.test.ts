/**
 * Nothing recorded twice under real concurrency (issue 20): Stripe delivers an event at least
 * once and may send the same event, or two events about one payment, at the same moment. On
 * PostgreSQL 15, 20 connections deliver at once the same checkout.session.completed (one event
 * id), further checkout.session.completed and payment_intent.succeeded events of the same
 * payment, then 20 deliveries of one refund: every call succeeds (no 409/500 for the webhook to
 * retry), the ledger holds one payment and one refund, one invoice. PGlite is one session, so
 * this runs on Postgres only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { engines, skipBecause } from '../local/test/harness/engines.ts';
import { preparedPostgres } from '../local/test/harness/stack.ts';

const postgres = engines().find((e) => e.name === 'postgres')!;
const CLIENTS = 20;

const event = (id: string, type: string, object: Record<string, unknown>) => ({
  id,
  object: 'event',
  api_version: '2026-10-28.endive',
  created: 1810000000,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

describe.skipIf(postgres.skip && skipBecause('record_stripe_event concurrency on postgres', postgres.skip))(
  'record_stripe_event concurrency on postgres',
  () => {
    let url: string;
    let admin: pg.Client;
    let orderId: string;

    beforeAll(async () => {
      url = await preparedPostgres('supabase', false, 'payrace');
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`insert into public.places (name, width, length) values ('PAY', 4, 12)`);
      orderId = (
        await admin.query<{ id: string }>(
          `insert into public.orders (place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
         select id, 'overnight', now() + interval '30 days', now() + interval '31 days', 'confirmed', 3332,
                '{"net_cents": 2800, "vat_cents": 532, "gross_cents": 3332}', 'payer@example.org',
                jsonb_build_object('id', id, 'name', name), '{"name": "Racer", "length": 9, "width": 3}', '{"first_name": "P", "last_name": "Ayer"}'
         from public.places where name = 'PAY' returning id`,
        )
      ).rows[0].id;
      await admin.query(`set role service_role`);
      await admin.query(
        `select public.record_checkout_session($1, 'cs_test_race', 'https://checkout.example/cs_test_race', 3332, now() + interval '30 minutes')`,
        [orderId],
      );
      await admin.query(`reset role`);
    });
    afterAll(async () => {
      await admin?.end();
    });

    /** Every client becomes the service role in its own transaction, then all deliver at once. */
    async function deliverAtOnce(events: unknown[]) {
      const clients = await Promise.all(
        events.map(async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          return c;
        }),
      );
      try {
        await Promise.all(
          clients.map(async (c) => {
            await c.query('begin');
            await c.query(`set local role service_role`);
          }),
        );
        return await Promise.all(
          clients.map(async (c, i) => {
            try {
              const { rows } = await c.query<{ r: { outcome: string; replay: boolean } }>(`select public.record_stripe_event($1) as r`, [
                JSON.stringify(events[i]),
              ]);
              await c.query('commit');
              return rows[0].r;
            } catch (error) {
              await c.query('rollback');
              return { outcome: `error ${(error as { code?: string }).code} ${(error as Error).message}`, replay: false };
            }
          }),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    }

    it(`${CLIENTS} deliveries of one payment (one event id, and other events of it) record it once`, async () => {
      const session = {
        id: 'cs_test_race',
        object: 'checkout.session',
        amount_total: 3332,
        currency: 'eur',
        client_reference_id: orderId,
        metadata: { order_id: orderId },
        payment_intent: 'pi_race',
        payment_status: 'paid',
        status: 'complete',
      };
      const intent = {
        id: 'pi_race',
        object: 'payment_intent',
        amount: 3332,
        amount_received: 3332,
        currency: 'eur',
        metadata: { order_id: orderId },
        status: 'succeeded',
      };
      const events = Array.from({ length: CLIENTS }, (_, i) =>
        i < 10
          ? event('evt_race_same', 'checkout.session.completed', session)
          : i < 15
            ? event(`evt_race_cs_${i}`, 'checkout.session.completed', session)
            : event(`evt_race_pi_${i}`, 'payment_intent.succeeded', intent),
      );
      const outcomes = await deliverAtOnce(events);
      expect(outcomes.filter((o) => o.outcome.startsWith('error'))).toEqual([]);
      // Of the eleven events one recorded the payment, the others found it; the nine replays of
      // the one event id answer what its first delivery did. A payment intent's event that came
      // before the session's event named its intent waited (only the intent a session of the
      // order names pays it), and the session's event then applied it: in the end each found
      // the payment.
      const first = outcomes.filter((o) => !o.replay).map((o) => o.outcome);
      expect(first.filter((o) => o === 'recorded')).toHaveLength(1);
      expect(first.filter((o) => o !== 'recorded' && o !== 'duplicate' && o !== 'waiting')).toEqual([]);
      expect(
        outcomes
          .slice(10, 15)
          .map((o) => o.outcome)
          .filter((o) => o === 'waiting'),
      ).toEqual([]);
      const stored = await admin.query(`select outcome, count(*)::int as n from private.stripe_events group by outcome order by outcome`);
      expect(stored.rows).toEqual([
        { outcome: 'duplicate', n: 10 },
        { outcome: 'recorded', n: 1 },
      ]);
      const same = outcomes.slice(0, 10);
      expect(same.filter((o) => o.replay)).toHaveLength(9);
      expect(new Set(same.map((o) => o.outcome)).size).toBe(1);
      const ledger = await admin.query(`select kind, amount_cents from public.payments where order_id = $1`, [orderId]);
      expect(ledger.rows).toEqual([{ kind: 'payment', amount_cents: 3332 }]);
      const order = await admin.query(
        `select payment_status, (select count(*)::int from public.invoices i where i.order_id = o.id) as invoices from public.orders o where id = $1`,
        [orderId],
      );
      expect(order.rows).toEqual([{ payment_status: 'paid', invoices: 1 }]);
      expect((await admin.query(`select count(*)::int as n from private.stripe_events`)).rows[0].n).toBe(11);
    });

    it(`${CLIENTS} deliveries of one refund (refund.updated and charge.refunded) record it once`, async () => {
      const refund = { id: 're_race', object: 'refund', amount: 1000, currency: 'eur', payment_intent: 'pi_race', status: 'succeeded' };
      const charge = {
        id: 'ch_race',
        object: 'charge',
        amount: 3332,
        amount_refunded: 1000,
        currency: 'eur',
        payment_intent: 'pi_race',
        refunds: { object: 'list', data: [refund] },
      };
      const events = Array.from({ length: CLIENTS }, (_, i) =>
        i % 2 === 0 ? event(`evt_race_re_${i}`, 'refund.updated', refund) : event(`evt_race_ch_${i}`, 'charge.refunded', charge),
      );
      const outcomes = await deliverAtOnce(events);
      expect(outcomes.filter((o) => o.outcome.startsWith('error'))).toEqual([]);
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['recorded', ...Array(CLIENTS - 1).fill('duplicate')].sort());
      const refunds = await admin.query(`select amount_cents from public.payments where order_id = $1 and kind = 'refund'`, [orderId]);
      expect(refunds.rows).toEqual([{ amount_cents: 1000 }]);
      expect((await admin.query(`select payment_status from public.orders where id = $1`, [orderId])).rows).toEqual([
        { payment_status: 'partially_refunded' },
      ]);
      // One credit note for the one refund (issue 21), whatever the number of deliveries.
      const documents = await admin.query(`select kind, gross_cents from public.invoices where order_id = $1 order by number`, [orderId]);
      expect(documents.rows).toEqual([
        { kind: 'invoice', gross_cents: 3332 },
        { kind: 'credit_note', gross_cents: -1000 },
      ]);
    });
    it(`${CLIENTS} retries of one desk refund at once (one request key) pay it back once`, async () => {
      // A member of staff (harbour role, 2FA satisfied) whose request the order desk retries.
      const staff = '00000000-0000-4000-8000-0000000000d5';
      await admin.query(`insert into auth.users (id, email, aud, role) values ($1, 'desk@example.org', 'authenticated', 'authenticated')`, [
        staff,
      ]);
      await admin.query(
        `insert into public.user_roles (user_id, harbor) values ($1, true) on conflict (user_id) do update set harbor = true`,
        [staff],
      );
      // An order of its own, paid in cash at the desk.
      const deskOrder = (
        await admin.query<{ id: string }>(
          `insert into public.orders (place_id, kind, starts_at, ends_at, status, price_cents, price_breakdown, email, place_snapshot, boat, person)
         select id, 'overnight', now() + interval '40 days', now() + interval '41 days', 'confirmed', 3332,
                '{"net_cents": 2800, "vat_cents": 532, "gross_cents": 3332}', 'desk@example.org',
                jsonb_build_object('id', id, 'name', name), '{"name": "Till", "length": 9, "width": 3}', '{"first_name": "D", "last_name": "Esk"}'
         from public.places where name = 'PAY' returning id`,
        )
      ).rows[0].id;
      await admin.query(
        `insert into public.payments (order_id, kind, method, amount_cents, recorded_by) values ($1, 'payment', 'cash', 3332, $2)`,
        [deskOrder, staff],
      );
      const before = await admin.query(`select count(*)::int as n from public.payments where order_id = $1 and kind = 'refund'`, [
        deskOrder,
      ]);
      const claims = JSON.stringify({ sub: staff, role: 'authenticated', aal: 'aal2' });
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          await c.query('begin');
          await c.query(`set local role authenticated`);
          await c.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
          return c;
        }),
      );
      let answers: string[];
      try {
        answers = await Promise.all(
          clients.map(async (c) => {
            try {
              const { rows } = await c.query<{ id: string }>(
                `select id from public.record_desk_refund($1, 'cash', 500, null, false, '00000000-0000-4000-8000-00000000d5d5')`,
                [deskOrder],
              );
              await c.query('commit');
              return rows[0].id;
            } catch (error) {
              await c.query('rollback');
              return `error ${(error as { code?: string }).code} ${(error as Error).message}`;
            }
          }),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
      // Every retry got the one row back (none failed, none paid again).
      expect(answers.filter((a) => a.startsWith('error'))).toEqual([]);
      expect(new Set(answers).size).toBe(1);
      const after = await admin.query(`select count(*)::int as n from public.payments where order_id = $1 and kind = 'refund'`, [
        deskOrder,
      ]);
      expect(after.rows[0].n - before.rows[0].n).toBe(1);
    });
  },
);
