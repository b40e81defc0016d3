/**
 * Who hears what over Realtime (issue 39, item 4), on the real project (migrations + demo seed)
 * and both engines, with the app's own client (src/lib/supabase-client.ts: Realtime loaded on first
 * use, the session's tokens following into it):
 *
 * - a payment reaches harbour staff and the service role, a guest only for their own order, and
 *   nobody else: anon and a guest of another order receive nothing, not even that it happened
 *   (Realtime answers a role without SELECT on the primary key with an "Error 401" record per
 *   insert; docs/adr/0004-realtime-authorization.md);
 * - staff who open the channel first and then sign in with password and TOTP receive orders and
 *   place_statuses changes, without calling setAuth by hand, and stop receiving them when they
 *   sign out;
 * - staff who sign in first and then open the channel (the first channel of a new socket) receive
 *   them too, and still after a token refresh.
 *
 * Every negative waits for a positive control that gets the same change (the service role, staff
 * or the owner), so no assertion passes by looking too early.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { RealtimeChannel, RealtimeClient } from '@supabase/realtime-js';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { DEMO_TOTP_SECRETS, unusedTotpCode } from '../../supabase/local/test/harness/demo-staff.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';
import { createAppClient, type AppSupabaseClient } from '../../src/lib/supabase-client.ts';
import { guestWithBooking, SEED, startSecurityStack } from './helpers.ts';

interface Change {
  table: string;
  type: string;
  record: Record<string, unknown>;
  errors: unknown;
}

interface Watch {
  got: Change[];
  system: { status: string; message: string }[];
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const settle = (ms = 500) => new Promise((r) => setTimeout(r, ms));

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`realtime authorisation on ${engine.name}`, engine.skip))(
    `realtime authorisation on ${engine.name}`,
    () => {
      let stack: Stack;
      const clients: SupabaseClient[] = [];
      const sockets: RealtimeClient[] = [];

      beforeAll(async () => {
        stack = await startSecurityStack(engine.name);
      });

      afterAll(async () => {
        await Promise.all(
          clients.splice(0).map(async (c) => {
            await c.removeAllChannels().catch(() => {});
            c.realtime.disconnect();
          }),
        );
        await Promise.all(
          sockets.splice(0).map(async (r) => {
            await r.removeAllChannels().catch(() => {});
            r.disconnect();
          }),
        );
        await stack?.close();
      });

      /** A client as the app creates it (src/lib/supabase-client.ts): Realtime follows the session's tokens. */
      const appClient = () =>
        createAppClient(stack.url, stack.keys.anonKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
        });

      /** The app client's Realtime, loaded when first needed, as the app's live hooks load it. */
      const live = async (c: AppSupabaseClient) => {
        const realtime = await c.realtime();
        if (!sockets.includes(realtime)) sockets.push(realtime);
        return realtime;
      };

      const serviceClient = () => {
        const c = createClient(stack.url, stack.keys.serviceRoleKey, {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
        });
        clients.push(c);
        return c;
      };

      /** Password, then the TOTP code of the seeded key, as the login and /auth/mfa pages do. */
      const signInStaff = async (c: { auth: SupabaseClient['auth'] }, who: 'staff' | 'admin') => {
        const { email, password } = SEED[who];
        const signedIn = await c.auth.signInWithPassword({ email, password });
        expect(signedIn.error).toBeNull();
        const factor = signedIn.data.user!.factors!.find((f) => f.factor_type === 'totp' && f.status === 'verified')!;
        const verified = await c.auth.mfa.challengeAndVerify({
          factorId: factor.id,
          code: await unusedTotpCode(DEMO_TOTP_SECRETS[email], stack.url),
        });
        expect(verified.error).toBeNull();
        const { data } = await c.auth.getSession();
        expect(JSON.parse(Buffer.from(data.session!.access_token.split('.')[1], 'base64url').toString()).aal).toBe('aal2');
      };

      /** Subscribes to INSERT and UPDATE of the tables (as the app's live hooks do); resolves once Realtime confirms. */
      const watch = async (c: { channel(topic: string): RealtimeChannel }, topic: string, tables: string[]): Promise<Watch> => {
        const w: Watch = { got: [], system: [] };
        const channel = c.channel(topic);
        for (const table of tables) {
          for (const event of ['INSERT', 'UPDATE'] as const) {
            channel.on('postgres_changes', { event, schema: 'public', table }, (p) => {
              w.got.push({ table: p.table, type: p.eventType, record: p.new as Record<string, unknown>, errors: p.errors });
            });
          }
        }
        channel.on('system', {}, (p: { status: string; message: string }) => w.system.push(p));
        await new Promise<void>((resolve, reject) =>
          channel.subscribe((status, err) => {
            if (status === 'SUBSCRIBED') resolve();
            else if (status !== 'CLOSED') reject(new Error(`${topic}: ${status} ${err?.message ?? ''}`));
          }),
        );
        await until(() => w.system.length > 0, 5000, `${topic} subscribed to PostgreSQL`);
        expect(w.system[0]).toMatchObject({ status: 'ok', message: 'Subscribed to PostgreSQL' });
        return w;
      };

      const ofTable = (w: Watch, table: string) => w.got.filter((g) => g.table === table);

      const insertPayment = async (orderId: string) =>
        (
          await stack.db.query<{ id: string }>(
            `insert into public.payments (order_id, kind, method, amount_cents) values ($1, 'payment', 'cash', 100) returning id`,
            [orderId],
          )
        ).rows[0].id;

      it('a payment reaches staff and the service role, a guest only for their own order, and neither anon nor another guest', async () => {
        const staff = appClient();
        await signInStaff(staff, 'admin');
        const owner = await guestWithBooking(stack, 70);
        const otherGuest = await guestWithBooking(stack, 72);
        clients.push(owner.client, otherGuest.client);
        const anon = appClient();

        const seen = {
          staff: await watch(await live(staff), 'pay-staff', ['payments']),
          service: await watch(serviceClient(), 'pay-service', ['payments']),
          owner: await watch(owner.client, 'pay-owner', ['payments']),
          otherGuest: await watch(otherGuest.client, 'pay-other-guest', ['payments']),
          anon: await watch(await live(anon), 'pay-anon', ['payments']),
        };

        // A payment of the owner's order: staff, the service role and the owner hear of it.
        const first = await insertPayment(owner.orderId);
        await until(
          () => seen.staff.got.length >= 1 && seen.service.got.length >= 1 && seen.owner.got.length >= 1,
          5000,
          'staff, service role and owner to get the payment',
        );
        for (const who of ['staff', 'service', 'owner'] as const) {
          expect(seen[who].got.map((g) => [g.type, g.record.id, g.errors])).toEqual([['INSERT', first, null]]);
        }
        // A payment of a seeded order that is neither guest's: staff and the service role only.
        const seeded = (
          await stack.db.query<{ id: string }>(
            `select id from public.orders where user_id is distinct from $1 and user_id is distinct from $2 order by created_at limit 1`,
            [owner.userId, otherGuest.userId],
          )
        ).rows[0].id;
        const second = await insertPayment(seeded);
        await until(
          () => seen.staff.got.length >= 2 && seen.service.got.length >= 2,
          5000,
          'staff and service role to get the second payment',
        );
        expect(seen.service.got.map((g) => g.record.id)).toEqual([first, second]);
        await settle();
        expect(seen.owner.got).toHaveLength(1);
        // Nothing at all, not an empty record with an error either.
        expect(seen.otherGuest.got).toEqual([]);
        expect(seen.anon.got).toEqual([]);
      });

      it('staff who open the channel and then sign in with password and TOTP receive orders and berth changes, without setAuth by hand; signing out stops them', async () => {
        const staff = appClient();
        const desk = await watch(await live(staff), 'calendar-before-sign-in', ['place_statuses', 'orders']);
        const control = await watch(serviceClient(), 'calendar-control-1', ['place_statuses', 'orders']);
        await signInStaff(staff, 'staff');

        // A guest books through the API: an order and its berth row.
        const booked = await guestWithBooking(stack, 74);
        await until(
          () => ofTable(control, 'orders').some((g) => g.record.id === booked.orderId),
          5000,
          'the service role to get the booking',
        );
        await until(
          () =>
            ofTable(desk, 'orders').some((g) => g.record.id === booked.orderId) &&
            ofTable(desk, 'place_statuses').some((g) => g.record.order_id === booked.orderId),
          5000,
          'staff to get the booking and its berth row',
        );

        // Signed out, the channel is anon again: the next booking reaches the control only.
        const before = { desk: desk.got.length, system: desk.system.length };
        await staff.auth.signOut();
        await until(() => desk.system.length > before.system, 5000, 'Realtime to take the anon key');
        const later = await guestWithBooking(stack, 76);
        await until(
          () => ofTable(control, 'place_statuses').some((g) => g.record.order_id === later.orderId),
          5000,
          'the service role to get the second booking',
        );
        await settle();
        expect(desk.got.slice(before.desk)).toEqual([]);
      });

      it('staff who sign in first and then open the channel receive orders and berth changes, also after a token refresh', async () => {
        const staff = appClient();
        await signInStaff(staff, 'staff');
        const desk = await watch(await live(staff), 'calendar-after-sign-in', ['place_statuses', 'orders']);
        const control = await watch(serviceClient(), 'calendar-control-2', ['place_statuses', 'orders']);

        const booked = await guestWithBooking(stack, 78);
        await until(
          () => ofTable(control, 'orders').some((g) => g.record.id === booked.orderId),
          5000,
          'the service role to get the booking',
        );
        await until(
          () =>
            ofTable(desk, 'orders').some((g) => g.record.id === booked.orderId) &&
            ofTable(desk, 'place_statuses').some((g) => g.record.order_id === booked.orderId),
          5000,
          'staff to get the booking and its berth row',
        );

        // A refreshed token (TOKEN_REFRESHED) is still aal2, and the channel goes on receiving.
        // (A second later: tokens count in seconds, one issued within the same second is the same.)
        const system = desk.system.length;
        await settle(1100);
        expect((await staff.auth.refreshSession()).error).toBeNull();
        await until(() => desk.system.length > system, 5000, 'Realtime to take the refreshed token');
        const later = await guestWithBooking(stack, 80);
        await until(
          () => ofTable(desk, 'orders').some((g) => g.record.id === later.orderId),
          5000,
          'staff to get the booking after the refresh',
        );
      });
    },
  );
}
