/**
 * Privilege escalation attempts (issue 13, item 4), black-box through supabase-js and raw
 * HTTP on both engines: own role flags and the active flag, an order's price and payment
 * status, someone else's booking through RPC arguments, the door code by booking alone, and
 * guest sessions reading others' data. Every attempt must be refused and leave the database
 * as it was (read back as the service role).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import {
  anonClient,
  berlinDay,
  guestWithBooking,
  http,
  personas,
  SEED,
  signIn,
  startSecurityStack,
  type Persona,
  type PersonaName,
} from './helpers.ts';
import { DEMO_TOTP_SECRETS, unusedTotpCode } from '../../supabase/local/test/harness/demo-staff.ts';

const refused = (error: { code?: string } | null, codes = ['42501']) => {
  expect(error, 'the call was accepted').not.toBeNull();
  expect(codes).toContain(error!.code);
};

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`security: privilege escalation on ${engine.name}`, engine.skip))(
    `security: privilege escalation on ${engine.name}`,
    () => {
      let stack: Stack;
      let who: Record<PersonaName, Persona> & { guestOrderId: string };
      const q = async <T = Record<string, unknown>>(sql: string, params?: unknown[]) => (await stack.db.query<T>(sql, params)).rows;
      const order = async (id: string) => (await q<Record<string, unknown>>(`select * from public.orders where id = $1`, [id]))[0];
      let kundeToday: string; // kunde's overnight stay arriving today (seed)
      let kundeFuture: string; // a future confirmed stay of kunde's

      beforeAll(async () => {
        stack = await startSecurityStack(engine.name);
        who = await personas(stack);
        kundeToday = (
          await q<{ id: string }>(
            `select id from public.orders where user_id = $1 and status = 'confirmed' and kind = 'overnight'
           and (starts_at at time zone 'Europe/Berlin')::date = (now() at time zone 'Europe/Berlin')::date`,
            [SEED.customer.id],
          )
        )[0].id;
        kundeFuture = (
          await q<{ id: string }>(
            `select id from public.orders where user_id = $1 and status = 'confirmed' and starts_at > now() + interval '3 days' order by starts_at limit 1`,
            [SEED.customer.id],
          )
        )[0].id;
      }, 120_000);
      afterAll(async () => {
        await stack?.close();
      });

      describe('role flags and the active flag', () => {
        it('a customer cannot make themselves admin or staff, nor switch accounts on or off', async () => {
          const { customer } = who;
          const roles = await customer.client
            .from('user_roles')
            .update({ admin: true, harbor: true })
            .eq('user_id', SEED.customer.id)
            .select();
          expect(roles.error).toBeNull();
          expect(roles.data).toEqual([]);
          const off = await customer.client.from('profiles').update({ active: false }).eq('id', SEED.customer.id).select();
          refused(off.error);
          const otherOff = await customer.client.from('profiles').update({ active: false }).eq('id', SEED.other.id).select();
          expect(otherOff.data ?? []).toEqual([]);
          const email = await customer.client.from('profiles').update({ email: 'admin@hafen.test' }).eq('id', SEED.customer.id).select();
          refused(email.error);
          const insertRole = await http(stack, 'POST', '/rest/v1/user_roles', {
            token: customer.token,
            body: { user_id: SEED.customer.id, admin: true },
          });
          expect(insertRole.status).toBe(403);
          expect(await q(`select admin, harbor from public.user_roles where user_id = $1`, [SEED.customer.id])).toEqual([
            { admin: false, harbor: false },
          ]);
          expect(
            await q(`select active, email from public.profiles where id in ($1, $2) order by email`, [SEED.customer.id, SEED.other.id]),
          ).toEqual([
            { active: true, email: SEED.other.email },
            { active: true, email: SEED.customer.email },
          ]);
        });

        it('harbour staff cannot make themselves admin nor switch a customer off', async () => {
          const { staff } = who;
          const roles = await staff.client.from('user_roles').update({ admin: true }).eq('user_id', SEED.staff.id).select();
          expect(roles.data).toEqual([]);
          const off = await staff.client.from('profiles').update({ active: false }).eq('id', SEED.customer.id).select();
          expect(off.data ?? []).toEqual([]);
          expect(await q(`select admin from public.user_roles where user_id = $1`, [SEED.staff.id])).toEqual([{ admin: false }]);
          expect(await q(`select active from public.profiles where id = $1`, [SEED.customer.id])).toEqual([{ active: true }]);
        });

        it('role claims written into user metadata give no power: policies read user_roles, not the JWT', async () => {
          const s = await signIn(stack, SEED.lisa.email, SEED.lisa.password);
          const upd = await s.client.auth.updateUser({
            data: { roles: { admin: true, harbor: true }, role: 'service_role', active: true },
          });
          expect(upd.error).toBeNull();
          const { data } = await s.client.auth.refreshSession();
          const claims = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1], 'base64url').toString());
          expect(claims.role).toBe('authenticated');
          expect(claims.app_metadata.roles).toEqual({ admin: false, harbor: false, user: true });
          expect((await s.client.from('sale_codes').select('code')).data).toEqual([]);
          refused((await s.client.rpc('harbour_access')).error);
          refused((await s.client.rpc('calendar', { p_from: berlinDay(0), p_to: berlinDay(1) })).error);
        });

        it('an inactive account cannot switch itself on, book, check in or read the door code', async () => {
          const s = await signIn(stack, SEED.inactive.email, SEED.inactive.password);
          const on = await s.client.from('profiles').update({ active: true }).eq('id', SEED.inactive.id).select();
          refused(on.error);
          expect(await q(`select active from public.profiles where id = $1`, [SEED.inactive.id])).toEqual([{ active: false }]);
          const search = await s.client.rpc('search_available_places', {
            p_kind: 'overnight',
            p_arrival: berlinDay(90),
            p_departure: berlinDay(91),
            p_boat_length: 8,
            p_boat_width: 3,
          });
          const booked = await s.client.rpc('create_booking', {
            p_place_id: search.data[0].place_id,
            p_kind: 'overnight',
            p_arrival: berlinDay(90),
            p_departure: berlinDay(91),
            p_boat: { name: 'Alte Liebe', length: 8, width: 3 },
            p_person: { first_name: 'Ingo', last_name: 'Inaktiv' },
          });
          refused(booked.error);
          refused((await s.client.rpc('harbour_access')).error);
          expect(
            await q(`select count(*)::int as n from public.orders where user_id = $1 and created_at > now() - interval '5 minutes'`, [
              SEED.inactive.id,
            ]),
          ).toEqual([{ n: 0 }]);
        });
      });

      describe('orders: price and payment', () => {
        it('nobody but the booking functions writes an order; the price is computed, never taken from the caller', async () => {
          for (const p of [who.customer, who.guest, who.staff, who.admin]) {
            const res = await http(stack, 'PATCH', `/rest/v1/orders?id=eq.${kundeFuture}`, {
              token: p.token,
              body: { price_cents: 1, payment_status: 'paid', status: 'completed' },
            });
            expect(res.status, p.name).toBe(403);
          }
          expect(await order(kundeFuture)).toMatchObject({ payment_status: 'pending', status: 'confirmed' });
          expect((await order(kundeFuture)).price_cents).not.toBe(1);
          // extra fields in the booking payload do not set the price
          const quote = await who.customer.client.rpc('quote_booking', {
            p_kind: 'overnight',
            p_arrival: berlinDay(120),
            p_departure: berlinDay(122),
            p_boat_length: 9.4,
          });
          expect(quote.error).toBeNull();
          const search = await who.customer.client.rpc('search_available_places', {
            p_kind: 'overnight',
            p_arrival: berlinDay(120),
            p_departure: berlinDay(122),
            p_boat_length: 9.4,
            p_boat_width: 3.2,
          });
          const booked = await who.customer.client.rpc('create_booking', {
            p_place_id: search.data[0].place_id,
            p_kind: 'overnight',
            p_arrival: berlinDay(120),
            p_departure: berlinDay(122),
            p_boat: { name: 'Rheinperle', length: 9.4, width: 3.2, price_cents: 1 },
            p_person: {
              first_name: 'Klaus',
              last_name: 'Kunde',
              price_cents: 1,
              status: 'completed',
              payment_status: 'paid',
              user_id: SEED.other.id,
            },
          });
          expect(booked.error).toBeNull();
          expect(booked.data).toMatchObject({ status: 'confirmed', payment_status: 'pending', user_id: SEED.customer.id });
          expect(booked.data.price_cents).toBe(search.data[0].price_cents);
          expect(booked.data.price_cents).toBeGreaterThan(1000);
        });

        it('only staff record desk payments and refunds, nobody records Stripe events over the API, and nothing unpaid is refunded', async () => {
          for (const p of [who.customer, who.guest, who.other]) {
            refused((await p.client.rpc('record_desk_payment', { p_order_id: kundeFuture, p_method: 'cash' })).error);
            refused((await p.client.rpc('record_desk_refund', { p_order_id: kundeFuture, p_method: 'cash', p_amount_cents: 100 })).error);
            refused(
              (
                await p.client.rpc('prepare_online_refund', {
                  p_order_id: kundeFuture,
                  p_amount_cents: 100,
                  p_request_key: '00000000-0000-4000-8000-000000000039',
                })
              ).error,
            );
          }
          refused((await who.guest.client.rpc('record_desk_payment', { p_order_id: who.guestOrderId, p_method: 'cash' })).error);
          const forged = {
            id: 'evt_forged',
            type: 'checkout.session.completed',
            data: {
              object: { id: 'cs_forged', amount_total: 1, currency: 'eur', payment_status: 'paid', metadata: { order_id: kundeFuture } },
            },
          };
          for (const p of [who.customer, who.guest, who.staff, who.admin]) {
            refused((await p.client.rpc('record_stripe_event', { p_event: forged })).error);
            refused(
              (
                await p.client.rpc('record_checkout_session', {
                  p_order_id: kundeFuture,
                  p_session_id: 'cs_forged',
                  p_url: 'https://x.example/',
                  p_amount_cents: 1,
                  p_expires_at: '2099-01-01T00:00:00Z',
                })
              ).error,
            );
          }
          const anon = await who.anon.client.rpc('record_desk_payment', { p_order_id: kundeFuture, p_method: 'cash' });
          expect(anon.error).not.toBeNull();
          expect(await order(kundeFuture)).toMatchObject({ payment_status: 'pending' });
          const skip = await who.staff.client.rpc('record_desk_refund', { p_order_id: kundeFuture, p_method: 'cash', p_amount_cents: 100 });
          refused(skip.error, ['P0001']);
          expect(await order(kundeFuture)).toMatchObject({ payment_status: 'pending' });
          expect((await q(`select 1 from public.payments where order_id = $1`, [kundeFuture])).length).toBe(0);
        });
      });

      describe("someone else's booking through RPC arguments", () => {
        it("another customer and a guest cannot cancel, check in, move or pay for kunde's stays", async () => {
          const place = (await q<{ id: string }>(`select id from public.places where name = 'E09'`))[0].id;
          for (const p of [who.other, who.guest]) {
            refused((await p.client.rpc('cancel_booking', { p_order_id: kundeFuture })).error, ['PT404', '42501']);
            refused((await p.client.rpc('check_in', { p_order_id: kundeToday })).error, ['PT404', '42501']);
            refused((await p.client.rpc('move_booking', { p_order_id: kundeFuture, p_place_id: place })).error);
            refused(
              (
                await p.client.rpc('staff_create_booking', {
                  p_place_id: place,
                  p_kind: 'overnight',
                  p_arrival: berlinDay(200),
                  p_departure: berlinDay(201),
                  p_boat: { name: 'X', length: 8, width: 3 },
                  p_person: { first_name: 'X', last_name: 'Y', email: 'x@example.org' },
                })
              ).error,
            );
          }
          // the customer cannot move their own stay either (staff only), nor cancel the guest's
          refused((await who.customer.client.rpc('move_booking', { p_order_id: kundeFuture, p_place_id: place })).error);
          refused((await who.customer.client.rpc('cancel_booking', { p_order_id: who.guestOrderId })).error, ['PT404', '42501']);
          refused((await who.customer.client.rpc('check_in', { p_order_id: who.guestOrderId })).error, ['PT404', '42501']);
          expect(await order(kundeFuture)).toMatchObject({ status: 'confirmed', cancelled_at: null });
          expect((await order(kundeFuture)).place_id).not.toBe(place);
          expect(await order(kundeToday)).toMatchObject({ status: 'confirmed', checked_in: false });
          expect(await order(who.guestOrderId)).toMatchObject({ status: 'unverified', user_id: who.guest.userId });
          expect(
            await q(`select count(*)::int as n from public.place_statuses where order_id in ($1, $2) and cancelled`, [
              kundeFuture,
              who.guestOrderId,
            ]),
          ).toEqual([{ n: 0 }]);
        });

        it("claim_guest_orders moves only orders carrying the caller's verified address, and never for a guest", async () => {
          refused((await who.guest.client.rpc('claim_guest_orders')).error);
          const claimed = await who.other.client.rpc('claim_guest_orders');
          expect(claimed.error).toBeNull();
          expect(claimed.data).toBe(0);
          expect(await order(who.guestOrderId)).toMatchObject({ status: 'unverified', user_id: who.guest.userId });
        });

        it('staff-only and admin-only functions refuse customers and guests', async () => {
          const msg = (await q<{ id: string }>(`select id from public.contact_messages limit 1`))[0].id;
          const app = (await q<{ id: string }>(`select id from public.long_term_applications where status = 'open' limit 1`))[0].id;
          for (const p of [who.guest, who.customer]) {
            refused((await p.client.rpc('set_message_done', { p_message_id: msg })).error);
            refused((await p.client.rpc('answer_long_term_application', { p_id: app, p_status: 'accepted' })).error);
            refused((await p.client.rpc('calendar', { p_from: berlinDay(0), p_to: berlinDay(7) })).error);
            refused((await p.client.rpc('report_revenue', { p_from: berlinDay(-30), p_to: berlinDay(0) })).error);
            refused(
              (
                await p.client.rpc('add_berth_block', {
                  p_place_id: (await q<{ id: string }>(`select id from public.places where name = 'A02'`))[0].id,
                  p_starts_at: `${berlinDay(150)}T08:00:00Z`,
                  p_ends_at: `${berlinDay(151)}T08:00:00Z`,
                })
              ).error,
            );
          }
          refused((await who.staff.client.rpc('answer_long_term_application', { p_id: app, p_status: 'accepted' })).error);
          expect(await q(`select status from public.long_term_applications where id = $1`, [app])).toEqual([{ status: 'open' }]);
          expect(await q(`select done_at from public.contact_messages where id = $1`, [msg])).toEqual([{ done_at: null }]);
        });

        it("export_my_data holds only the caller's own data", async () => {
          const mine = await who.customer.client.rpc('export_my_data');
          expect(mine.error).toBeNull();
          const text = JSON.stringify(mine.data);
          expect(text).toContain(SEED.customer.email);
          for (const email of [SEED.other.email, SEED.admin.email, SEED.staff.email, 'lisa.meyer@hafen.test'])
            expect(text).not.toContain(email);
          const guest = await who.guest.client.rpc('export_my_data');
          expect(JSON.stringify(guest.data ?? null)).not.toContain(SEED.customer.email);
        });
      });

      describe('the door code and wifi (docs/architecture.md: staff, active long-term holders, verified owner of a checked-in stay)', () => {
        it('nobody reads them by booking alone; a guest checked in by staff still does not; the verified owner after check-in does', async () => {
          // kunde has a confirmed stay arriving today (not checked in); lisa has bookings and,
          // given by the admin here, a long-term berth from next season on (not yet today)
          const lisa = await signIn(stack, SEED.lisa.email, SEED.lisa.password);
          const nextYear = new Date().getFullYear() + 1;
          const holder = await who.admin.client.from('long_term_holders').insert({
            place_id: (await q<{ id: string }>(`select id from public.places where name = 'B11'`))[0].id,
            user_id: SEED.lisa.id,
            email: SEED.lisa.email,
            first_name: 'Lisa',
            last_name: 'Meyer',
            starts_on: `${nextYear}-04-01`,
          });
          expect(holder.error).toBeNull();
          for (const [name, c] of [
            ['anon', who.anon.client],
            ['guest', who.guest.client],
            ['kunde', who.customer.client],
            ['lisa', lisa.client],
          ] as const) {
            const res = await c.rpc('harbour_access');
            expect(res.error, name).not.toBeNull();
            expect(res.data ?? null, name).toBeNull();
          }
          // a guest whose stay starts today, checked in by staff: still anonymous, still refused
          const guest = await guestWithBooking(stack, 0);
          const staffCheckIn = await who.staff.client.rpc('check_in', { p_order_id: guest.orderId });
          expect(staffCheckIn.error).toBeNull();
          expect(staffCheckIn.data.status).toBe('checked_in');
          refused((await guest.client.rpc('harbour_access')).error);
          // the guest cannot check itself in either (verification required)
          const guest2 = await guestWithBooking(stack, 0);
          refused((await guest2.client.rpc('check_in', { p_order_id: guest2.orderId })).error);
          // nor read the settings table directly, whoever they are (only admins)
          for (const p of [who.guest, who.customer, who.staff]) {
            const direct = await p.client.from('harbour_settings').select('door_code');
            expect(direct.data ?? []).toEqual([]);
          }
          // positive controls: staff, and kunde after checking in on the arrival day
          expect((await who.staff.client.rpc('harbour_access')).data).toHaveLength(1);
          const checkIn = await who.customer.client.rpc('check_in', { p_order_id: kundeToday });
          expect(checkIn.error).toBeNull();
          expect((await who.customer.client.rpc('harbour_access')).data[0].door_code).toBeTruthy();
          // lisa is still refused although someone else is checked in; anna, an active
          // long-term holder, may read them, and jan, checked in since yesterday (seed)
          refused((await lisa.client.rpc('harbour_access')).error);
          expect((await who.other.client.rpc('harbour_access')).data).toHaveLength(1);
          const jan = await signIn(stack, SEED.futureHolder.email, SEED.futureHolder.password);
          expect((await jan.client.rpc('harbour_access')).data).toHaveLength(1);
        });
      });

      describe("guest sessions and others' data", () => {
        it('a guest sees its own order only, no profiles, messages, invoices or statuses of others, even when asking by id', async () => {
          const { guest } = who;
          const orders = await guest.client.from('orders').select('id, user_id, email');
          expect(orders.data!.length).toBeGreaterThan(0);
          expect(new Set(orders.data!.map((o) => o.user_id))).toEqual(new Set([guest.userId]));
          const byId = await guest.client.from('orders').select('id').eq('id', kundeFuture);
          expect(byId.data).toEqual([]);
          const byUser = await guest.client.from('orders').select('id').eq('user_id', SEED.customer.id);
          expect(byUser.data).toEqual([]);
          const seededGuest = await guest.client.from('orders').select('id').eq('user_id', SEED.seededGuest.id);
          expect(seededGuest.data).toEqual([]);
          for (const table of [
            'profiles',
            'user_roles',
            'contact_messages',
            'invoices',
            'place_statuses',
            'long_term_holders',
            'outbox',
            'sale_codes',
          ] as const) {
            const res = await guest.client.from(table).select('*');
            expect(res.data, table).toEqual([]);
          }
          // embedding does not open a way round RLS
          const embed = await http(stack, 'GET', `/rest/v1/places?select=name,orders(id,email)&limit=3`, { token: guest.token });
          expect(embed.text).not.toContain('@hafen.test');
          // the per-berth calendar is staff only
          refused(
            (
              await guest.client.rpc('place_calendar', {
                p_place_id: (await q<{ id: string }>(`select id from public.places where name = 'A01'`))[0].id,
                p_from: berlinDay(0),
                p_to: berlinDay(7),
              })
            ).error,
          );
        });

        it("another customer sees none of kunde's orders, invoices or messages", async () => {
          const c: SupabaseClient = who.other.client;
          expect((await c.from('orders').select('id').eq('user_id', SEED.customer.id)).data).toEqual([]);
          expect((await c.from('profiles').select('id').eq('id', SEED.customer.id)).data).toEqual([]);
          expect((await c.from('contact_messages').select('id').eq('user_id', SEED.customer.id)).data).toEqual([]);
        });
      });

      describe('a stolen staff password alone (two-factor sign-in required by the seed)', () => {
        it('harbour staff and the admin with the password only (aal1) see no guest data and call no staff function; the second factor opens both', async () => {
          for (const person of [SEED.staff, SEED.admin]) {
            const c = anonClient(stack);
            const signedIn = await c.auth.signInWithPassword({ email: person.email, password: person.password });
            expect(signedIn.error).toBeNull();
            const claims = JSON.parse(Buffer.from(signedIn.data.session!.access_token.split('.')[1], 'base64url').toString()) as {
              aal: string;
            };
            expect(claims.aal).toBe('aal1');
            expect((await c.from('orders').select('id').eq('id', kundeToday)).data).toEqual([]);
            expect((await c.from('profiles').select('id').eq('id', SEED.customer.id)).data).toEqual([]);
            expect((await c.from('audit_log').select('id').limit(1)).data ?? []).toEqual([]);
            refused((await c.rpc('staff_orders', {})).error);
            refused((await c.rpc('harbour_access')).error);
            const settings = await c.from('harbour_settings').update({ mfa_required_harbor: false }).eq('id', 1).select();
            expect(settings.data ?? []).toEqual([]);
            // Nor does the password alone take the account over: a new password or e-mail address
            // needs the second factor (GoTrue's insufficient_aal).
            expect((await c.auth.updateUser({ password: 'Gestohlen1234' })).error).toMatchObject({ status: 401, code: 'insufficient_aal' });
            expect((await c.auth.updateUser({ email: 'dieb@example.test' })).error).toMatchObject({
              status: 401,
              code: 'insufficient_aal',
            });
            // The code from the authenticator app (the seed's key) makes the same client staff.
            const factor = signedIn.data.user!.factors!.find((f) => f.status === 'verified')!;
            expect(
              (
                await c.auth.mfa.challengeAndVerify({
                  factorId: factor.id,
                  code: await unusedTotpCode(DEMO_TOTP_SECRETS[person.email], stack.url),
                })
              ).error,
            ).toBeNull();
            expect((await c.from('orders').select('id').eq('id', kundeToday)).data).toEqual([{ id: kundeToday }]);
            const page = await c.rpc('staff_orders', {});
            expect(page.error).toBeNull();
            expect((page.data as unknown[]).length).toBeGreaterThan(0);
          }
          expect(await q(`select mfa_required_admin, mfa_required_harbor from public.harbour_settings`)).toEqual([
            { mfa_required_admin: true, mfa_required_harbor: true },
          ]);
        });
      });
    },
  );
}
