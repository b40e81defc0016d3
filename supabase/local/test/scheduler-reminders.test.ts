/**
 * The guest reminders fire from the scheduler at the right time (issue 22): the stack's pg_cron
 * stand-in runs the project's jobs "at" a given minute with the database's clock frozen there
 * (Scheduler.runDue + private.freeze_clock), and the real pipeline does the rest: the
 * guest-reminders job queues the e-mail in the outbox, the send-mail job hands it to the
 * send-mail edge function through pg_net, and the mail catcher receives it.
 * - The arrival reminder: not before 09:00 Berlin on the day before arrival, at 09:00 once, not
 *   at a minute the job's schedule (every 15 minutes) does not match, never twice.
 * - The expiry warning of an unverified booking: not four hours before it lapses, in the three
 *   hours before it once, in the guest's language.
 * One engine: the SQL of both is checked on both engines with a frozen clock in pgTAP 348.
 * - The report tables: a booking queues its arrival day and stay (private.report_pending); the
 *   report-flush job (every five minutes) takes them in without any report being read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses } from './harness/offline.ts';
import { berlinDay, clientOptions, guestOrder, until, type GuestOrder } from './harness/payments.ts';
import type { Queryable } from '../src/db/types.ts';
import type { Stack } from '../src/stack.ts';
import { signInWithPassword } from './harness/demo-staff.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const STAFF = { email: 'hafen@hafen.test', password: 'Hafen1234' };

const engine = engines()[0];
const suite = `guest reminders from the scheduler with a test clock on ${engine.name}`;
describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
  let stack: Stack;
  let walkIn: { id: string; email: string; arrival: string; bookingNumber: string; place: string };
  let guest: GuestOrder;
  let staff: SupabaseClient;

  /** Runs the jobs due at `at` with the database's clock frozen there, then sends what they queued. */
  async function runAt(at: Date): Promise<string[]> {
    const prepare = async (tx: Queryable) => void (await tx.query(`select private.freeze_clock($1)`, [at.toISOString()]));
    const ran = await stack.context.scheduler!.runDue(at, { prepare });
    await stack.context.scheduler!.drain();
    return ran;
  }
  const berlinAt = async (day: string, time: string) =>
    new Date((await stack.db.query<{ at: string }>(`select private.berlin_at($1::date, $2::time)::text as at`, [day, time])).rows[0].at);
  const mails = (email: string, kind: string) =>
    stack.db
      .query<{ status: string }>(`select status from public.outbox where recipient = $1 and kind = $2`, [email, kind])
      .then((r) => r.rows);
  const delivered = (email: string, subject: RegExp) => stack.context.mailer.store.list(email).filter((m) => subject.test(m.subject));

  beforeAll(async () => {
    stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
    // A phone booking by staff, arriving in 40 days, confirmed at once (no lapse), in English.
    staff = createClient(stack.url, stack.keys.anonKey, clientOptions);
    const { error } = await signInWithPassword(staff, STAFF);
    if (error) throw error;
    const arrival = berlinDay(40);
    const free = await staff.rpc('search_available_places', {
      p_kind: 'overnight',
      p_arrival: arrival,
      p_departure: berlinDay(42),
      p_boat_length: 8,
      p_boat_width: 3,
    });
    if (free.error) throw free.error;
    const email = 'erin.early@example.org';
    const booked = await staff.rpc('staff_create_booking', {
      p_place_id: free.data[0].place_id,
      p_kind: 'overnight',
      p_arrival: arrival,
      p_departure: berlinDay(42),
      p_boat: { name: 'Morning Star', length: 8, width: 3 },
      p_person: { first_name: 'Erin', last_name: 'Early', email, locale: 'en' },
    });
    if (booked.error) throw booked.error;
    walkIn = { id: booked.data.id, email, arrival, bookingNumber: booked.data.booking_number, place: free.data[0].name };
    // A guest's booking, not confirmed by e-mail: it lapses 24 hours after booking. (Its test
    // runs first: the arrival test's clock, weeks ahead, lets the expiry job lapse it.)
    guest = await guestOrder(stack, 45, 'de');
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('an unverified booking: no warning four hours before it lapses, one in the three hours before, in German', async () => {
    const { rows } = await stack.db.query<{ expires_at: string; booking_number: string; status: string }>(
      `select expires_at::text, booking_number, status::text from public.orders where id = $1`,
      [guest.orderId],
    );
    const order = rows[0];
    expect(order.status).toBe('unverified');
    const lapses = new Date(order.expires_at);
    // The quarter hours four hours and two hours before it lapses.
    const quarter = (ms: number) => new Date(Math.floor(ms / 900_000) * 900_000);
    expect(await runAt(quarter(lapses.getTime() - 4 * 3_600_000))).toContain('guest-reminders');
    expect(await mails(guest.email, 'expiry_warning')).toEqual([]);

    expect(await runAt(quarter(lapses.getTime() - 2 * 3_600_000))).toContain('guest-reminders');
    const [mail] = await until(
      async () => delivered(guest.email, /^Ihre Buchung .* verfällt am /),
      (m) => m.length > 0,
      60_000,
      200,
    );
    expect(mail.subject).toContain(order.booking_number);
    expect(mail.text).toContain('Guten Tag Gerd Gast,');
    expect(mail.text).toContain('Ihre E-Mail-Adresse für die Buchung von Liegeplatz');
    expect(mail.text).toContain(`/order/${guest.orderId}`);
    // Still unverified and not lapsed at that time: the expiry job, run too, left it alone.
    expect(
      (await stack.db.query<{ status: string }>(`select status::text from public.orders where id = $1`, [guest.orderId])).rows[0].status,
    ).toBe('unverified');

    expect(await runAt(quarter(lapses.getTime() - 3_600_000))).toContain('guest-reminders');
    expect(await mails(guest.email, 'expiry_warning')).toHaveLength(1);
  }, 120_000);
  it('the day before arrival: nothing at 08:45, the reminder at 09:00 (once), no run at 09:07', async () => {
    const dayBefore = berlinDay(39);
    expect(await runAt(await berlinAt(dayBefore, '08:45'))).toContain('guest-reminders');
    expect(await mails(walkIn.email, 'arrival_reminder')).toEqual([]);

    expect(await runAt(await berlinAt(dayBefore, '09:00'))).toContain('guest-reminders');
    const [mail] = await until(
      async () => delivered(walkIn.email, /^See you tomorrow/),
      (m) => m.length > 0,
      60_000,
      200,
    );
    expect(mail.subject.startsWith(`See you tomorrow: berth ${walkIn.place}, `)).toBe(true);
    expect(mail.subject.endsWith(`, 14:00 (${walkIn.bookingNumber})`)).toBe(true);
    expect(mail.text).toContain('Hello Erin Early,');
    expect(mail.text).toContain('your stay at Hafen Düsseldorf begins tomorrow.');
    expect(mail.text).toContain(`Booking number: ${walkIn.bookingNumber}`);
    expect(mail.text).toMatch(new RegExp(`/en/order/${walkIn.id}/check-in`));
    expect(mail.text).toContain('How to find us: ');
    expect(mail.html).toContain('See you tomorrow');

    // 09:07 matches no job of the quarter hour; 09:15 runs it again but sends nothing twice.
    expect(await runAt(await berlinAt(dayBefore, '09:07'))).not.toContain('guest-reminders');
    expect(await runAt(await berlinAt(dayBefore, '09:15'))).toContain('guest-reminders');
    expect(await mails(walkIn.email, 'arrival_reminder')).toEqual([{ status: 'sent' }]);
    expect(delivered(walkIn.email, /^See you tomorrow/)).toHaveLength(1);
  }, 120_000);

  it('the report tables are brought up to date by the report-flush job, at minutes divisible by five', async () => {
    // The stack's own tick runs the job at real five-minute marks too: start well clear of one.
    const toMark = 300_000 - (Date.now() % 300_000);
    if (toMark < 30_000) await new Promise((r) => setTimeout(r, toMark + 2_000));
    const arrival = berlinDay(60);
    const free = await staff.rpc('search_available_places', {
      p_kind: 'overnight',
      p_arrival: arrival,
      p_departure: berlinDay(61),
      p_boat_length: 8,
      p_boat_width: 3,
    });
    if (free.error) throw free.error;
    const booked = await staff.rpc('staff_create_booking', {
      p_place_id: free.data[0].place_id,
      p_kind: 'overnight',
      p_arrival: arrival,
      p_departure: berlinDay(61),
      p_boat: { name: 'Ledger', length: 8, width: 3 },
      p_person: { first_name: 'Rita', last_name: 'Report', email: 'rita.report@example.org', locale: 'de' },
    });
    if (booked.error) throw booked.error;
    const pending = async () => Number((await stack.db.query<{ n: string }>(`select count(*) as n from private.report_pending`)).rows[0].n);
    // What the day's row of report_days holds, and what the order facts say it should hold.
    const kept = async () =>
      (
        await stack.db.query<{ orders: number | null }>(`select sum(orders)::int as orders from private.report_days where day = $1`, [
          arrival,
        ])
      ).rows[0].orders;
    const facts = async () =>
      (
        await stack.db.query<{ orders: number }>(
          `select count(*)::int as orders from private.order_report_facts f where f.sale and (f.starts_at at time zone 'Europe/Berlin')::date = $1`,
          [arrival],
        )
      ).rows[0].orders;
    const spans = async () =>
      Number(
        (
          await stack.db.query<{ n: string }>(
            `select count(*) as n from private.occupancy_spans s join public.place_statuses p on p.id = s.place_status_id where p.order_id = $1`,
            [booked.data.id],
          )
        ).rows[0].n,
      );
    expect(await facts()).toBeGreaterThan(0);
    expect(await pending()).toBeGreaterThan(0);
    expect(await kept()).toBeNull();
    expect(await spans()).toBe(0);

    // 10:07 matches no five-minute job; 10:10 runs report-flush (no report was read in between).
    const at = (hhmm: string) => new Date(`2031-03-04T${hhmm}:00Z`);
    expect(await stack.context.scheduler!.runDue(at('10:07'))).not.toContain('report-flush');
    expect(await pending()).toBeGreaterThan(0);
    expect(await stack.context.scheduler!.runDue(at('10:10'))).toContain('report-flush');
    expect(await pending()).toBe(0);
    expect(await kept()).toBe(await facts());
    expect(await spans()).toBe(1);
  }, 120_000);
});
