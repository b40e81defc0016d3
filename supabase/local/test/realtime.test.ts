import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import type { Stack } from '../src/stack.ts';
import { withRequest } from '../src/db/request.ts';

const fixture = resolve(import.meta.dirname, 'fixtures/realtime');

type Payload = { eventType: string; new: Record<string, unknown>; old: Record<string, unknown>; [k: string]: unknown };

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
async function until(check: () => boolean, ms = 1000, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`realtime on ${engine.name}`, engine.skip))(`realtime on ${engine.name}`, () => {
    let stack: Stack;
    const clients: SupabaseClient[] = [];

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: fixture });
    });

    afterAll(async () => {
      await Promise.all(clients.splice(0).map((c) => c.removeAllChannels().catch(() => {})));
      await stack?.close();
    });

    /**
     * A supabase-js client; with `token`, realtime uses that user's JWT the way supabase-js
     * hands a session's token to realtime (its accessToken callback, asked again on refresh).
     */
    const client = (options: { vsn?: string; token?: string } = {}) => {
      const holder = { token: options.token };
      const c = createClient(stack.url, stack.keys.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never, ...(options.vsn ? { vsn: options.vsn } : {}) },
        ...(options.token ? { accessToken: async () => holder.token ?? null } : {}),
      });
      clients.push(c);
      return Object.assign(c, { holder });
    };

    const userToken = (sub: string, expiresIn = 3600) =>
      stack.context.jwt.sign({ sub, role: 'authenticated', aud: 'authenticated', email: `${sub.slice(0, 8)}@hafen.test` }, expiresIn);

    // As an app does after sign-in: realtime has the session's token before the channel joins.
    const subscribe = async (channel: RealtimeChannel) => {
      await channel.socket.setAuth();
      await new Promise<void>((resolveSub, reject) => {
        channel.subscribe((status, err) => {
          if (status === 'SUBSCRIBED') resolveSub();
          else if (status !== 'CLOSED') reject(new Error(`${status}: ${err?.message ?? ''}`));
        });
      });
    };

    const insertItem = async (status: string, qty: number) =>
      (await stack.db.query<{ id: string }>(`insert into public.items (status, qty) values ($1, $2) returning id`, [status, qty])).rows[0]
        .id;

    it('a filtered subscriber gets inserts and updates of matching rows within 1 s, and nothing else', async () => {
      const events: Payload[] = [];
      const arrived: number[] = [];
      const system: { status: string; message: string; extension: string }[] = [];
      const channel = client()
        .channel('items-filter')
        .on('postgres_changes', { event: '*', schema: 'public', table: 'items', filter: 'status=eq.open' }, (p) => {
          events.push(p as never);
          arrived.push(Date.now());
        })
        .on('system', {}, (p) => system.push(p));
      await subscribe(channel);
      await until(() => system.length > 0, 3000, 'the system message');
      expect(system[0]).toMatchObject({
        extension: 'postgres_changes',
        status: 'ok',
        message: 'Subscribed to PostgreSQL',
        channel: 'items-filter',
      });

      const insertedAt = Date.now();
      const open = await insertItem('open', 3);
      await until(() => events.length >= 1, 1000, 'the insert');
      // Written as an API role (as PostgREST would): the capture trigger works for any writer.
      await withRequest(stack.db, { role: 'authenticated', claims: { sub: randomUUID(), role: 'authenticated' } }, (tx) =>
        tx.query(`insert into public.items (status, qty) values ('closed', 4), ('open', 6)`),
      );
      await until(() => events.length >= 2, 1000, 'the insert by an API role');
      const updatedAt = Date.now();
      await stack.db.query(`update public.items set qty = 5 where id = $1`, [open]);
      await until(() => events.length >= 3, 1000, 'the update');
      expect(arrived[0] - insertedAt).toBeLessThan(1000);
      expect(arrived[2] - updatedAt).toBeLessThan(1000);
      await settle();
      expect(events.map((e) => e.eventType)).toEqual(['INSERT', 'INSERT', 'UPDATE']);
      expect(events[1].new).toMatchObject({ status: 'open', qty: 6 });
      const [insert, , update] = events;
      expect(insert).toMatchObject({ schema: 'public', table: 'items', errors: null, old: {} });
      expect(insert.new).toMatchObject({ id: Number(open), status: 'open', qty: 3 });
      expect(typeof insert.commit_timestamp).toBe('string');
      expect(insert.commit_timestamp as string).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(update.new).toMatchObject({ id: Number(open), qty: 5 });
      // Default replica identity: the old record of an update is the primary key.
      expect(update.old).toEqual({ id: Number(open) });
    });

    it('a change made through the REST API (supabase-js) reaches the subscriber', async () => {
      const got: Payload[] = [];
      const c = client();
      const channel = c
        .channel('via-rest')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items', filter: 'status=eq.rest' }, (p) =>
          got.push(p as never),
        );
      await subscribe(channel);
      const { error } = await c.from('items').insert({ status: 'rest', qty: 9 });
      expect(error).toBeNull();
      await until(() => got.length >= 1, 1000, 'the REST insert');
      expect(got[0].new).toMatchObject({ status: 'rest', qty: 9 });
    });

    it('filters eq, neq, lt, lte, gt, gte and in (and not., like, isdistinct, AND) each see only their rows', async () => {
      const seen: Record<string, number[]> = {};
      const channel = client().channel('items-ops');
      const filters = [
        'qty=neq.100',
        'qty=lt.101',
        'qty=lte.101',
        'qty=gt.101',
        'qty=gte.101',
        'qty=in.(100,102)',
        'qty=eq.101',
        // and the rest of what realtime-js can build: not., like, isdistinct, AND of two
        'qty=not.eq.101',
        'status=like.op%',
        'qty=isdistinct.100',
        'qty=gt.100,qty=lt.102',
        'status=not.in.(ops,"a,b")',
      ];
      for (const filter of filters) {
        seen[filter] = [];
        channel.on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items', filter }, (p) =>
          seen[filter].push((p as unknown as Payload).new.qty as number),
        );
      }
      await subscribe(channel);
      for (const qty of [100, 101, 102]) await insertItem('ops', qty);
      await until(() => seen['qty=in.(100,102)'].length >= 2 && seen['qty=gte.101'].length >= 2, 3000, 'filtered inserts');
      await settle();
      const sorted = Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, [...v].sort()]));
      expect(sorted).toEqual({
        'qty=neq.100': [101, 102],
        'qty=lt.101': [100],
        'qty=lte.101': [100, 101],
        'qty=gt.101': [102],
        'qty=gte.101': [101, 102],
        'qty=in.(100,102)': [100, 102],
        'qty=eq.101': [101],
        'qty=not.eq.101': [100, 102],
        'status=like.op%': [100, 101, 102],
        'qty=isdistinct.100': [101, 102],
        'qty=gt.100,qty=lt.102': [101],
        'status=not.in.(ops,"a,b")': [],
      });
    });

    it('a customer never receives another customer’s order (RLS decides per subscriber)', async () => {
      const alice = randomUUID();
      const bob = randomUUID();
      const got: Record<string, string[]> = { alice: [], bob: [], anon: [] };
      const sub = async (name: string, token?: string) => {
        const channel = client({ token })
          .channel(`orders-${name}`)
          .on('postgres_changes', { event: '*', schema: 'public', table: 'orders' }, (p) =>
            got[name].push(`${(p as unknown as Payload).eventType}:${(p as unknown as Payload).new.berth ?? ''}`),
          );
        await subscribe(channel);
      };
      await sub('alice', await userToken(alice));
      await sub('bob', await userToken(bob));
      await sub('anon');
      await stack.db.query(`insert into public.orders (customer_id, berth) values ($1, 'A-1'), ($2, 'B-1')`, [alice, bob]);
      await stack.db.query(`update public.orders set berth = 'A-2' where customer_id = $1`, [alice]);
      await until(() => got.alice.length >= 2 && got.bob.length >= 1, 3000, 'own orders');
      await settle();
      expect(got).toEqual({ alice: ['INSERT:A-1', 'UPDATE:A-2'], bob: ['INSERT:B-1'], anon: [] });
    });

    it('deletes arrive as hosted Realtime sends them: not RLS-checked, only the key when RLS is on', async () => {
      const owner = randomUUID();
      const other = randomUUID();
      const deletes: Payload[] = [];
      const filtered: Payload[] = [];
      const byKey: Payload[] = [];
      const { rows } = await stack.db.query<{ id: string }>(
        `insert into public.orders (customer_id, berth, note) values ($1, 'D-1', 'secret') returning id`,
        [owner],
      );
      const id = Number(rows[0].id);
      const channel = client({ token: await userToken(other) })
        .channel('orders-deletes')
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'orders' }, (p) => deletes.push(p as never))
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'orders', filter: 'berth=eq.D-1' }, (p) =>
          filtered.push(p as never),
        )
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'orders', filter: `id=eq.${id}` }, (p) =>
          byKey.push(p as never),
        );
      await subscribe(channel);
      await stack.db.query(`delete from public.orders where id = $1`, [id]);
      await until(() => deletes.length >= 1 && byKey.length >= 1, 3000, 'the delete');
      await settle();
      expect(deletes).toHaveLength(1);
      expect(deletes[0]).toMatchObject({ eventType: 'DELETE', table: 'orders', new: {}, old: { id } });
      expect(deletes[0].old).toEqual({ id });
      expect(byKey).toHaveLength(1);
      // A filter on a column outside the replica identity cannot be evaluated for a delete.
      expect(filtered).toHaveLength(0);

      // Without RLS and with replica identity full the whole old row arrives (and filters see it).
      const full: Payload[] = [];
      const ch2 = client()
        .channel('full-identity')
        .on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'full_identity', filter: 'label=eq.x' }, (p) =>
          full.push(p as never),
        );
      await subscribe(ch2);
      const fi = await stack.db.query<{ id: string }>(`insert into public.full_identity (label) values ('x'), ('y') returning id`);
      await stack.db.query(`delete from public.full_identity`);
      await until(() => full.length >= 1, 3000, 'the full delete');
      await settle();
      expect(full.map((p) => p.old)).toEqual([{ id: Number(fi.rows[0].id), label: 'x' }]);
    });

    it('a token refresh keeps the subscription; an expired token closes the channel as Realtime does', async () => {
      const user = randomUUID();
      const got: string[] = [];
      const system: { status: string; message: string; extension: string }[] = [];
      const statuses: string[] = [];
      const c = client({ token: await userToken(user) });
      const channel = c
        .channel('orders-refresh')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'orders' }, (p) =>
          got.push((p as unknown as Payload).new.berth as string),
        )
        .on('system', {}, (p) => system.push(p));
      await c.realtime.setAuth();
      await new Promise<void>((r) =>
        channel.subscribe((s) => {
          statuses.push(s);
          if (s === 'SUBSCRIBED') r();
        }),
      );
      await until(() => system.length >= 1, 3000, 'subscribed');
      c.holder.token = await userToken(user, 7200);
      await c.realtime.setAuth();
      await until(() => system.length >= 2, 3000, 'the second system message');
      expect(system[1]).toMatchObject({ extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL' });
      await stack.db.query(`insert into public.orders (customer_id, berth) values ($1, 'R-1')`, [user]);
      await until(() => got.length >= 1, 3000, 'an order after the refresh');
      expect(got).toEqual(['R-1']);

      c.holder.token = await userToken(user, -10);
      await c.realtime.setAuth();
      await until(() => statuses.includes('CLOSED'), 2000, 'the channel to close');
      const last = system[system.length - 1];
      expect(last).toMatchObject({ extension: 'system', status: 'error' });
      expect(last.message).toMatch(/^Token has expired \d+ seconds ago$/);
      await stack.db.query(`insert into public.orders (customer_id, berth) values ($1, 'R-2')`, [user]);
      await settle();
      expect(got).toEqual(['R-1']);
    });

    it('a token that runs out closes the channel when it expires; leaving stops the events', async () => {
      const user = randomUUID();
      const system: { status: string; message: string; extension: string }[] = [];
      const statuses: string[] = [];
      const c = client({ token: await userToken(user, 2) });
      await c.realtime.setAuth();
      const channel = c
        .channel('short-token')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'orders' }, () => {})
        .on('system', {}, (p) => system.push(p));
      await new Promise<void>((r) => channel.subscribe((s) => (statuses.push(s), s === 'SUBSCRIBED' && r())));
      await until(() => statuses.includes('CLOSED'), 5000, 'the channel to close at expiry');
      expect(system[system.length - 1]).toMatchObject({ extension: 'system', status: 'error', channel: 'short-token' });
      expect(system[system.length - 1].message).toMatch(/^Token has expired \d+ seconds ago$/);

      const got: Payload[] = [];
      const other = client();
      const ch2 = other
        .channel('leaving')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items', filter: 'status=eq.leave' }, (p) =>
          got.push(p as never),
        );
      await subscribe(ch2);
      await insertItem('leave', 1);
      await until(() => got.length === 1, 3000, 'the event before leaving');
      expect(await other.removeChannel(ch2)).toBe('ok');
      await insertItem('leave', 2);
      await settle();
      expect(got).toHaveLength(1);
    });

    it('50 subscribers (50 users, RLS checked for each) all get the event', async () => {
      const customers = Array.from({ length: 50 }, () => randomUUID());
      const got = new Array<number>(50).fill(0);
      await Promise.all(
        customers.map(async (sub, i) => {
          const channel = client({ token: await userToken(sub) })
            .channel(`many-${i}`)
            .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'board', filter: 'label=eq.many' }, () => got[i]++);
          await subscribe(channel);
        }),
      );
      // board has RLS (every signed-in user may read): 50 claim sets are checked for the insert.
      const t0 = Date.now();
      await stack.db.query(`insert into public.board (label) values ('other'), ('many')`);
      await until(() => got.every((n) => n === 1), 1000, 'all 50 subscribers');
      expect(Date.now() - t0).toBeLessThan(1000);
      await settle();
      expect(got.every((n) => n === 1)).toBe(true);
    });

    for (const vsn of ['1.0.0', '2.0.0']) {
      it(`serializer vsn ${vsn}: postgres changes and broadcast between two clients (self, ack, binary)`, async () => {
        const a = client({ vsn });
        const b = client({ vsn });
        const atA: unknown[] = [];
        const atB: unknown[] = [];
        const changes: Payload[] = [];
        const room = `room-${vsn}`;
        const chA = a
          .channel(room, { config: { broadcast: { self: true, ack: true } } })
          .on('broadcast', { event: 'cursor' }, (p) => atA.push(p.payload));
        const chB = b
          .channel(room)
          .on('broadcast', { event: 'cursor' }, (p) => atB.push(p.payload))
          .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items', filter: `status=eq.vsn-${vsn}` }, (p) =>
            changes.push(p as never),
          );
        await subscribe(chA);
        await subscribe(chB);
        expect(await chA.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, who: 'ä😀' } })).toBe('ok');
        await until(() => atA.length >= 1 && atB.length >= 1, 3000, 'the broadcast');
        expect(atB).toEqual([{ x: 1, who: 'ä😀' }]);
        expect(atA).toEqual([{ x: 1, who: 'ä😀' }]);
        // b has self off: its own message does not come back to it.
        await chB.send({ type: 'broadcast', event: 'cursor', payload: { x: 2 } });
        await until(() => atA.length >= 2, 3000, 'the second broadcast');
        await settle(100);
        expect(atB).toEqual([{ x: 1, who: 'ä😀' }]);
        if (vsn === '2.0.0') {
          const bytes = new Uint8Array([1, 2, 3, 250]).buffer;
          await chA.send({ type: 'broadcast', event: 'cursor', payload: bytes });
          await until(() => atB.length >= 2, 3000, 'the binary broadcast');
          expect(Array.from(new Uint8Array(atB[1] as ArrayBuffer))).toEqual([1, 2, 3, 250]);
        }
        await insertItem(`vsn-${vsn}`, 7);
        await until(() => changes.length >= 1, 3000, 'the change');
        expect(changes[0].new).toMatchObject({ status: `vsn-${vsn}`, qty: 7 });
      });
    }

    it('broadcast crosses serializer versions (2.0.0 binary frames <-> 1.0.0 JSON)', async () => {
      const v2 = client({ vsn: '2.0.0' }).channel('mixed');
      const v1 = client({ vsn: '1.0.0' }).channel('mixed');
      const at1: unknown[] = [];
      const at2: unknown[] = [];
      v1.on('broadcast', { event: 'm' }, (p) => at1.push(p.payload));
      v2.on('broadcast', { event: 'm' }, (p) => at2.push(p.payload));
      await subscribe(v1);
      await subscribe(v2);
      await v2.send({ type: 'broadcast', event: 'm', payload: { from: 'v2' } });
      await v1.send({ type: 'broadcast', event: 'm', payload: { from: 'v1' } });
      await until(() => at1.length >= 1 && at2.length >= 1, 3000, 'both broadcasts');
      expect(at1).toEqual([{ from: 'v2' }]);
      expect(at2).toEqual([{ from: 'v1' }]);
    });

    it('REST broadcast: send() before joining falls back to it, httpSend() posts one message', async () => {
      const got: unknown[] = [];
      const listener = client()
        .channel('rest-room')
        .on('broadcast', { event: 'note' }, (p) => got.push(p.payload));
      await subscribe(listener);
      const sender = client().channel('rest-room');
      const warn = console.warn;
      console.warn = () => {};
      try {
        expect(await sender.send({ type: 'broadcast', event: 'note', payload: { via: 'batch' } })).toBe('ok');
      } finally {
        console.warn = warn;
      }
      expect(await sender.httpSend('note', { via: 'single' })).toEqual({ success: true });
      await until(() => got.length >= 2, 3000, 'the REST broadcasts');
      expect(got).toEqual([{ via: 'batch' }, { via: 'single' }]);
    });

    it('columns: only those the role may select, select narrows them (key kept); no primary key is a 400', async () => {
      type Raw = { errors: unknown };
      const all: Raw[] = [];
      const narrowed: Raw[] = [];
      const nokey: Raw[] = [];
      const c = client();
      const ch = c
        .channel('columns')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'profiles' }, (p) => all.push(p as never))
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'nokey' }, (p) => nokey.push(p as never));
      await subscribe(ch);
      const ch2 = c
        .channel('columns-select')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'profiles', select: ['city'] } as never, (p: unknown) =>
          narrowed.push(p as never),
        );
      await subscribe(ch2);
      await stack.db.query(`insert into public.profiles (name, city, secret) values ('Ina', 'Düsseldorf', 'pin 1234')`);
      await stack.db.query(`insert into public.nokey (label) values ('k')`);
      await until(() => all.length >= 1 && narrowed.length >= 1 && nokey.length >= 1, 3000, 'the column events');
      expect((all[0] as unknown as Payload).new).toEqual({ id: expect.any(Number), name: 'Ina', city: 'Düsseldorf' });
      expect((narrowed[0] as unknown as Payload).new).toEqual({ id: expect.any(Number), city: 'Düsseldorf' });
      expect(nokey[0].errors).toEqual(['Error 400: Bad Request, no primary key']);
    });

    it("a role without SELECT on the primary key gets Realtime's 401 record, shaped as Realtime sends it; with the key granted RLS decides", async () => {
      // Raw frames: the data object exactly as it goes over the wire.
      const url = `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`;
      const ws = new WebSocket(url);
      const frames: unknown[][] = [];
      ws.on('message', (data) => frames.push(JSON.parse(String(data))));
      await new Promise((r) => ws.once('open', r));
      const changesOn = (topic: string) =>
        frames.filter((f) => f[2] === topic && f[3] === 'postgres_changes').map((f) => (f[4] as { data: Record<string, unknown> }).data);
      const owner = randomUUID();
      const join = async (ref: string, topic: string, token: string) => {
        ws.send(
          JSON.stringify([
            ref,
            ref,
            topic,
            'phx_join',
            { config: { postgres_changes: [{ event: '*', schema: 'public', table: 'ledger' }] }, access_token: token },
          ]),
        );
        await until(() => frames.some((f) => f[2] === topic && f[3] === 'system'), 3000, `${topic} subscribed`);
      };
      await join('1', 'realtime:ledger-anon', stack.keys.anonKey);
      await join('2', 'realtime:ledger-owner', await userToken(owner));
      await join('3', 'realtime:ledger-other', await userToken(randomUUID()));
      try {
        const { rows } = await stack.db.query<{ id: string }>(`insert into public.ledger (owner, amount) values ($1, 5) returning id`, [
          owner,
        ]);
        await stack.db.query(`update public.ledger set amount = 6 where id = $1`, [rows[0].id]);
        await until(
          () => changesOn('realtime:ledger-owner').length >= 2 && changesOn('realtime:ledger-anon').length >= 2,
          3000,
          'the changes',
        );
        // apply_rls returns schema, table and type with the error; the poller fills in columns
        // [], record (and old_record on updates) {} and no commit timestamp.
        const unauthorized = {
          schema: 'public',
          table: 'ledger',
          commit_timestamp: null,
          columns: [],
          errors: ['Error 401: Unauthorized'],
          record: {},
        };
        expect(changesOn('realtime:ledger-anon')).toEqual([
          { ...unauthorized, type: 'INSERT' },
          { ...unauthorized, type: 'UPDATE', old_record: {} },
        ]);
        expect(changesOn('realtime:ledger-owner').map((d) => [d.type, (d.record as { amount: number }).amount, d.errors])).toEqual([
          ['INSERT', 5, null],
          ['UPDATE', 6, null],
        ]);

        // With SELECT on the key (and no policy for anon), RLS decides: anon gets nothing.
        await stack.db.query(`grant select (id) on public.ledger to anon`);
        await stack.db.query(`insert into public.ledger (owner, amount) values ($1, 7)`, [owner]);
        await until(() => changesOn('realtime:ledger-owner').length >= 3, 3000, "the owner's third change");
        await settle();
        expect(changesOn('realtime:ledger-anon')).toHaveLength(2);
        expect(changesOn('realtime:ledger-other')).toEqual([]);
      } finally {
        ws.close();
      }
    });

    it('delivers a row larger than a NOTIFY payload; over 1 MB as Realtime does (413)', async () => {
      const got: Payload[] = [];
      const channel = client()
        .channel('big')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'big' }, (p) => got.push(p as never));
      await subscribe(channel);
      const body = 'x'.repeat(20_000);
      await withRequest(stack.db, { role: 'service_role', claims: { role: 'service_role' } }, (tx) =>
        tx.query(`insert into public.big (body) values ($1)`, [body]),
      );
      await until(() => got.length >= 1, 3000, 'the big row');
      expect((got[0].new.body as string).length).toBe(20_000);
      expect(got[0].errors).toBeNull();
      // Over Realtime's 1 MB per change: only short values, and its 413 error.
      await stack.db.query(`insert into public.big (body) values ($1)`, ['y'.repeat(1_100_000)]);
      await until(() => got.length >= 2, 3000, 'the huge row');
      expect(got[1].new).toEqual({ id: expect.any(Number) });
      expect(got[1].errors).toEqual(['Error 413: Payload Too Large']);
    });

    it('tables added later get change capture (schema-changed), presence does not break joins', async () => {
      await stack.db.exec(`
        create table public.later (id bigint generated always as identity primary key, label text);
        grant select on public.later to anon, authenticated, service_role;
        alter publication supabase_realtime add table public.later;
        notify pgrst, 'reload schema';`);
      const triggers = async () =>
        (await stack.db.query(`select 1 from pg_trigger where tgrelid = 'public.later'::regclass and not tgisinternal`)).rowCount;
      const started = Date.now();
      while ((await triggers()) === 0 && Date.now() - started < 2000) await settle(20);
      expect(await triggers()).toBe(1);

      const got: Payload[] = [];
      const joins: string[] = [];
      const channel = client()
        .channel('later', { config: { presence: { key: 'me' } } })
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'later' }, (p) => got.push(p as never))
        .on('presence', { event: 'join' }, ({ key }) => joins.push(key));
      await subscribe(channel);
      expect(await channel.track({ online: true })).toBe('ok');
      await until(() => joins.includes('me'), 3000, 'the presence join');
      expect(channel.presenceState().me?.[0]).toMatchObject({ online: true });
      await stack.db.query(`insert into public.later (label) values ('l')`);
      await until(() => got.length >= 1, 3000, 'the later insert');
    });

    it('bad join payloads answer with an error and never crash the stack', async () => {
      const url = `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`;
      const ws = new WebSocket(url);
      const frames: unknown[][] = [];
      ws.on('message', (data) => frames.push(JSON.parse(String(data))));
      await new Promise((r) => ws.once('open', r));
      const sendFrame = (f: unknown[]) => ws.send(JSON.stringify(f));
      const replyTo = async (ref: string) => {
        await until(() => frames.some((f) => f[1] === ref && f[3] === 'phx_reply'), 3000, `reply ${ref}`);
        return frames.find((f) => f[1] === ref && f[3] === 'phx_reply')![4] as { status: string; response: Record<string, unknown> };
      };

      sendFrame([null, '1', 'phoenix', 'heartbeat', {}]);
      expect(await replyTo('1')).toEqual({ status: 'ok', response: {} });

      sendFrame(['2', '2', 'realtime:x', 'phx_join', { config: {}, access_token: 'not-a-jwt' }]);
      expect(await replyTo('2')).toEqual({ status: 'error', response: { reason: 'MalformedJWT: The token provided is not a valid JWT' } });

      const forged = (await userToken(randomUUID())).slice(0, -4) + 'AAAA';
      sendFrame(['3', '3', 'realtime:x', 'phx_join', { config: {}, access_token: forged }]);
      expect(await replyTo('3')).toEqual({ status: 'error', response: { reason: 'JwtSignatureError: Failed to validate JWT signature' } });

      sendFrame(['4', '4', 'realtime:x', 'phx_join', { config: {}, access_token: await userToken(randomUUID(), -30) }]);
      const expired = await replyTo('4');
      expect(expired.status).toBe('error');
      expect(String(expired.response.reason)).toMatch(/^InvalidJWTToken: Token has expired \d+ seconds ago$/);

      sendFrame(['5', '5', 'other:x', 'phx_join', {}]);
      expect(await replyTo('5')).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });

      sendFrame(['6', '6', 'realtime:', 'phx_join', {}]);
      expect(await replyTo('6')).toEqual({ status: 'error', response: { reason: 'TopicNameRequired: You must provide a topic name' } });

      // A join with bad postgres_changes joins, then reports the error as a system message.
      const bad = { event: '*', schema: 'public', table: 'items', filter: 'nope=eq.1' };
      sendFrame(['7', '7', 'realtime:bad', 'phx_join', { config: { postgres_changes: [bad] } }]);
      const joined = await replyTo('7');
      expect(joined.status).toBe('ok');
      expect((joined.response.postgres_changes as Record<string, unknown>[])[0]).toMatchObject(bad);
      await until(() => frames.some((f) => f[2] === 'realtime:bad' && f[3] === 'system'), 3000, 'the system error');
      const sys = frames.find((f) => f[2] === 'realtime:bad' && f[3] === 'system')![4] as Record<string, string>;
      expect(sys).toMatchObject({ extension: 'postgres_changes', status: 'error', channel: 'bad' });
      expect(sys.message).toMatch(/invalid column for filter nope/);

      for (const [ref, change] of [
        ['8', { schema: 'public', table: 'items', filter: 'qty=foo.1' }],
        ['9', { schema: 'public', table: 'hidden' }],
        ['10', { schema: 'public', table: 'items', filter: 'qty=eq.notanumber' }],
        ['11', {}],
      ] as const) {
        sendFrame([ref, ref, `realtime:bad${ref}`, 'phx_join', { config: { postgres_changes: [change] } }]);
        expect((await replyTo(ref)).status).toBe('ok');
        await until(() => frames.some((f) => f[2] === `realtime:bad${ref}` && f[3] === 'system'), 3000, `system ${ref}`);
        const msg = frames.find((f) => f[2] === `realtime:bad${ref}` && f[3] === 'system')![4] as Record<string, string>;
        expect(msg.status).toBe('error');
      }
      sendFrame(['12', '12', 'realtime:bad12', 'phx_join', { config: { postgres_changes: ['nonsense'] } }]);
      expect((await replyTo('12')).status).toBe('error');
      sendFrame([null, '13', 'realtime:never-joined', 'broadcast', { type: 'broadcast', event: 'e', payload: {} }]);
      expect(await replyTo('13')).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });

      sendFrame(['16', '16', 'realtime:ready', 'phx_join', { config: { broadcast: { replication_ready: true } } }]);
      expect(await replyTo('16')).toEqual({ status: 'ok', response: { postgres_changes: [] } });
      await until(() => frames.some((f) => f[2] === 'realtime:ready' && f[3] === 'system'), 3000, 'replication ready');
      expect(frames.find((f) => f[2] === 'realtime:ready' && f[3] === 'system')![4]).toEqual({
        extension: 'system',
        status: 'ok',
        message: 'Replication connection established',
        channel: 'ready',
      });

      // A refresh with a forged token shuts the channel down with Realtime's message.
      sendFrame(['14', '14', 'realtime:refresh', 'phx_join', { config: {}, access_token: await userToken(randomUUID()) }]);
      expect((await replyTo('14')).status).toBe('ok');
      sendFrame(['14', '15', 'realtime:refresh', 'access_token', { access_token: forged }]);
      await until(() => frames.some((f) => f[2] === 'realtime:refresh' && f[3] === 'phx_close'), 3000, 'the close after a forged token');
      const shut = frames.find((f) => f[2] === 'realtime:refresh' && f[3] === 'system')![4];
      expect(shut).toEqual({ extension: 'system', status: 'error', message: ':signature_error', channel: 'refresh' });
      expect(frames.find((f) => f[2] === 'realtime:refresh' && f[3] === 'phx_close')!.slice(0, 2)).toEqual(['14', '14']);

      // Garbage closes this socket only; the stack and other sockets carry on.
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      ws.send('this is not json');
      expect(await closed).toBe(1011);
      expect((await fetch(`${stack.url}/health`)).status).toBe(200);
      const ok: Payload[] = [];
      const channel = client()
        .channel('after-garbage')
        .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'items', filter: 'status=eq.after' }, (p) =>
          ok.push(p as never),
        );
      await subscribe(channel);
      await insertItem('after', 1);
      await until(() => ok.length === 1, 3000, 'an event after garbage');
    });

    // ------------------------------------------------------------ private channels
    /** Joins a channel with supabase-js; resolves with the subscribe outcome (no throw). */
    const joinOutcome = (channel: RealtimeChannel) =>
      new Promise<{ status: string; message: string }>((done) => {
        void channel.socket.setAuth().then(() =>
          channel.subscribe((status, err) => {
            if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR' || status === 'TIMED_OUT')
              done({ status, message: err?.message ?? '' });
          }),
        );
      });

    it('private channels: policies on realtime.messages decide who joins, receives and sends broadcast and presence', async () => {
      const alice = client({ token: await userToken(randomUUID()) });
      const bob = client({ token: await userToken(randomUUID()) });
      const got: unknown[] = [];
      const joins: string[] = [];
      const room = `room:${randomUUID().slice(0, 8)}`;
      const aliceRoom = alice
        .channel(room, { config: { private: true, presence: { key: 'alice' } } })
        .on('broadcast', { event: 'msg' }, (p) => got.push(p.payload))
        .on('presence', { event: 'join' }, ({ key }) => joins.push(key));
      expect(await joinOutcome(aliceRoom)).toEqual({ status: 'SUBSCRIBED', message: '' });
      const bobRoom = bob
        .channel(room, { config: { private: true, presence: { key: 'bob' } } })
        .on('presence', { event: 'sync' }, () => {});
      await subscribe(bobRoom);
      expect(await bobRoom.send({ type: 'broadcast', event: 'msg', payload: { text: 'hi' } })).toBe('ok');
      await until(() => got.length === 1, 3000, 'the private broadcast');
      expect(got[0]).toEqual({ text: 'hi' });
      expect(await bobRoom.track({ online: true })).toBe('ok');
      await until(() => joins.includes('bob'), 3000, 'the presence join');
      expect(aliceRoom.presenceState().bob?.[0]).toMatchObject({ online: true });

      // A public channel of the same name is another channel: it sees none of this.
      const outsider: unknown[] = [];
      await subscribe(
        client()
          .channel(room)
          .on('broadcast', { event: 'msg' }, (p) => outsider.push(p)),
      );
      expect(await bobRoom.send({ type: 'broadcast', event: 'msg', payload: { text: 'again' } })).toBe('ok');
      await until(() => got.length === 2, 3000, 'the second broadcast');
      await settle(200);
      expect(outsider).toEqual([]);

      // news:*: SELECT only. Joins, receives (from the service role); its sends are dropped and
      // its presence track is refused.
      const news = `news:${randomUUID().slice(0, 8)}`;
      const heard: unknown[] = [];
      const aliceNews = alice.channel(news, { config: { private: true } }).on('broadcast', { event: 'n' }, (p) => heard.push(p.payload));
      expect((await joinOutcome(aliceNews)).status).toBe('SUBSCRIBED');
      const bobNews = bob.channel(news, { config: { private: true, broadcast: { ack: true } } });
      await subscribe(bobNews);
      expect(await bobNews.send({ type: 'broadcast', event: 'n', payload: { from: 'bob' } }, { timeout: 1500 })).toBe('timed out');
      expect(await bobNews.track({ here: true })).toBe('error');
      const admin = client({ token: stack.keys.serviceRoleKey });
      const adminNews = admin.channel(news, { config: { private: true } });
      await subscribe(adminNews);
      expect(await adminNews.send({ type: 'broadcast', event: 'n', payload: { from: 'admin' } })).toBe('ok');
      await until(() => heard.length === 1, 3000, 'the service role broadcast');
      await settle(200);
      expect(heard).toEqual([{ from: 'admin' }]);
    });

    it("private channels: no matching policy, anon, and a revoked token are refused with Realtime's errors; the service role always joins", async () => {
      const secret = `secret:${randomUUID().slice(0, 8)}`;
      const refused = `Unauthorized: You do not have permissions to read from this Channel topic: ${secret}`;
      const user = client({ token: await userToken(randomUUID()) });
      const denied = user.channel(secret, { config: { private: true } });
      const outcome = await joinOutcome(denied);
      expect(outcome.status).toBe('CHANNEL_ERROR');
      expect(outcome.message).toContain(refused);
      await user.removeChannel(denied);

      const anon = client();
      const anonRoom = anon.channel('room:anon', { config: { private: true } });
      const anonOutcome = await joinOutcome(anonRoom);
      expect(anonOutcome.status).toBe('CHANNEL_ERROR');
      expect(anonOutcome.message).toContain('Unauthorized: You do not have permissions to read from this Channel topic: room:anon');
      await anon.removeChannel(anonRoom);

      const admin = client({ token: stack.keys.serviceRoleKey });
      expect((await joinOutcome(admin.channel(secret, { config: { private: true } }))).status).toBe('SUBSCRIBED');

      // The reply itself, as Realtime sends it; then a refresh to another user's token on a
      // user:<id> topic re-checks the policies and shuts the channel down.
      const url = `${stack.url.replace('http', 'ws')}/realtime/v1/websocket?apikey=${stack.keys.anonKey}&vsn=2.0.0`;
      const ws = new WebSocket(url);
      const frames: unknown[][] = [];
      ws.on('message', (data) => frames.push(JSON.parse(String(data))));
      await new Promise((r) => ws.once('open', r));
      const replyTo = async (ref: string) => {
        await until(() => frames.some((f) => f[1] === ref && f[3] === 'phx_reply'), 3000, `reply ${ref}`);
        return frames.find((f) => f[1] === ref && f[3] === 'phx_reply')![4];
      };
      const aliceId = randomUUID();
      const aliceToken = await userToken(aliceId);
      ws.send(JSON.stringify(['1', '1', `realtime:${secret}`, 'phx_join', { config: { private: true }, access_token: aliceToken }]));
      expect(await replyTo('1')).toEqual({ status: 'error', response: { reason: refused } });
      ws.send(JSON.stringify(['2', '2', `realtime:user:${aliceId}`, 'phx_join', { config: { private: true }, access_token: aliceToken }]));
      expect(await replyTo('2')).toEqual({ status: 'ok', response: { postgres_changes: [] } });
      ws.send(JSON.stringify(['2', '3', `realtime:user:${aliceId}`, 'access_token', { access_token: await userToken(randomUUID()) }]));
      await until(
        () => frames.some((f) => f[2] === `realtime:user:${aliceId}` && f[3] === 'phx_close'),
        3000,
        'the close after the refresh',
      );
      expect(frames.find((f) => f[2] === `realtime:user:${aliceId}` && f[3] === 'system')![4]).toEqual({
        extension: 'system',
        status: 'error',
        message: `You do not have permissions to read from this Channel topic: user:${aliceId}`,
        channel: `user:${aliceId}`,
      });
      ws.close();
    });

    it('private channels: the REST broadcast checks INSERT on realtime.messages for the caller', async () => {
      const room = `room:${randomUUID().slice(0, 8)}`;
      const news = `news:${randomUUID().slice(0, 8)}`;
      const admin = client({ token: stack.keys.serviceRoleKey });
      const heard: { topic: string; payload: unknown }[] = [];
      for (const topic of [room, news]) {
        await subscribe(
          admin
            .channel(topic, { config: { private: true } })
            .on('broadcast', { event: 'e' }, (p) => heard.push({ topic, payload: p.payload })),
        );
      }
      const post = async (path: string, token: string, body: unknown) => {
        const res = await fetch(`${stack.url}/realtime/v1/api/${path}`, {
          method: 'POST',
          headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: await res.text() };
      };
      const user = await userToken(randomUUID());
      // Batch: the message to room:* goes out, the one to news:* (no INSERT policy) is dropped.
      const batch = await post('broadcast', user, {
        messages: [
          { topic: room, event: 'e', payload: { n: 1 }, private: true },
          { topic: news, event: 'e', payload: { n: 2 }, private: true },
        ],
      });
      expect(batch.status).toBe(202);
      await until(() => heard.length >= 1, 3000, 'the batch broadcast');
      // Single message endpoint: 403 "Unauthorized" without the policy, for anon too.
      const single = (topic: string, token: string) =>
        post(`broadcast/${encodeURIComponent(topic)}/events/e?private=true`, token, { n: 3 });
      expect(await single(news, user)).toEqual({ status: 403, body: JSON.stringify({ message: 'Unauthorized' }) });
      expect(await single(room, stack.keys.anonKey)).toEqual({ status: 403, body: JSON.stringify({ message: 'Unauthorized' }) });
      expect((await single(room, user)).status).toBe(202);
      // The service role may broadcast anywhere (it bypasses RLS).
      expect(
        (await post('broadcast', stack.keys.serviceRoleKey, { messages: [{ topic: news, event: 'e', payload: { n: 4 }, private: true }] }))
          .status,
      ).toBe(202);
      await until(() => heard.length >= 3, 3000, 'the single and service broadcasts');
      await settle(200);
      expect(heard).toEqual([
        { topic: room, payload: { n: 1 } },
        { topic: room, payload: { n: 3 } },
        { topic: news, payload: { n: 4 } },
      ]);
      // Every check ran in a transaction that was rolled back: no probe row is left.
      expect((await stack.db.query(`select count(*)::int as n from realtime.messages`)).rows[0]).toEqual({ n: 0 });
    });
  });
}
