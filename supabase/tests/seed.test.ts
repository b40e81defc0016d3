/**
 * The demo harbour of supabase/seed.sql on the local stack, through supabase-js as the app
 * uses it, on PGlite and PostgreSQL 15: the demo users log in with their passwords (staff with
 * their second factor) and get their role flags in the JWT, kunde has a stay arriving today (Europe/Berlin), the harbour
 * is believable, and the booking functions work on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from '../local/test/harness/engines.ts';
import { startTestStack } from '../local/test/harness/stack.ts';
import type { Stack } from '../local/src/stack.ts';
import { signInWithPassword } from '../local/test/harness/demo-staff.ts';

const berlinDay = (offsetDays = 0) =>
  new Date(Date.now() + offsetDays * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`demo seed on ${engine.name}`, engine.skip))(`demo seed on ${engine.name}`, () => {
    let stack: Stack;
    const client = (): SupabaseClient =>
      createClient(stack.url, stack.keys.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      });
    const login = async (email: string, password: string) => {
      const sb = client();
      // Demo staff pass the second factor (their seeded TOTP keys), as after the app's login.
      const { data, error } = await signInWithPassword(sb, { email, password });
      if (error) throw new Error(`${email}: ${error.message}`);
      const claims = JSON.parse(Buffer.from(data.session!.access_token.split('.')[1], 'base64url').toString());
      return { sb, claims };
    };

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: 'supabase' });
    });
    afterAll(async () => {
      await stack?.close();
    });

    it('the demo users log in with their passwords and carry their role flags', async () => {
      const admin = await login('admin@hafen.test', 'Admin1234');
      expect(admin.claims.app_metadata.roles).toEqual({ admin: true, harbor: false, user: true });
      const harbour = await login('hafen@hafen.test', 'Hafen1234');
      expect(harbour.claims.app_metadata.roles).toEqual({ admin: false, harbor: true, user: true });
      const kunde = await login('kunde@hafen.test', 'Kunde1234');
      expect(kunde.claims.app_metadata.roles).toEqual({ admin: false, harbor: false, user: true });
      const wrong = await client().auth.signInWithPassword({ email: 'kunde@hafen.test', password: 'Kunde12345' });
      expect(wrong.error?.message).toBe('Invalid login credentials');
    });

    it('kunde has a stay arriving today and can check in, then reads the door code', async () => {
      const { sb } = await login('kunde@hafen.test', 'Kunde1234');
      const { data: orders, error } = await sb.from('orders').select('id, status, starts_at, kind').order('starts_at');
      expect(error).toBeNull();
      const today = orders!.filter((o) => new Date(o.starts_at).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' }) === berlinDay());
      const arriving = today.find((o) => o.status === 'confirmed' && o.kind === 'overnight');
      expect(arriving).toBeDefined();
      expect(orders!.some((o) => o.status === 'completed')).toBe(true);
      expect(orders!.some((o) => new Date(o.starts_at) > new Date(Date.now() + 7 * 86_400_000))).toBe(true);
      const before = await sb.rpc('harbour_access');
      expect(before.error?.message).toBe('not_allowed');
      const checkIn = await sb.rpc('check_in', { p_order_id: arriving!.id });
      expect(checkIn.error).toBeNull();
      expect(checkIn.data.status).toBe('checked_in');
      const after = await sb.rpc('harbour_access');
      expect(after.data).toEqual([{ door_code: '4711#', wifi_ssid: 'Hafen-Duesseldorf-Gast', wifi_password: 'Rheinblick2026' }]);
    });

    it('is a believable harbour: about 60 berths on piers A-E from 6 x 2.5 m to 25 x 6 m, columns, news, fair, codes', async () => {
      const anon = client();
      const { data: places } = await anon.from('places').select('name, pier, width, length, one_day, position');
      expect(places!.length).toBeGreaterThanOrEqual(55);
      expect(new Set(places!.map((p) => p.pier))).toEqual(new Set(['A', 'B', 'C', 'D', 'E']));
      expect(Math.min(...places!.map((p) => Number(p.length)))).toBe(6);
      expect(Math.max(...places!.map((p) => Number(p.length)))).toBe(25);
      expect(Math.max(...places!.map((p) => Number(p.width)))).toBe(6);
      expect(places!.filter((p) => p.one_day).length).toBeGreaterThan(3);
      expect(places!.every((p) => Array.isArray(p.position) && p.position.length === 2)).toBe(true);
      const { data: columns } = await anon.from('additional_places').select('type');
      expect(new Set(columns!.map((c) => c.type))).toEqual(new Set(['electric', 'water']));
      const { data: news } = await anon.from('news').select('title, title_en');
      expect(news!.map((n) => n.title_en)).toContain('To boot Düsseldorf on the Rhine');
      const { data: fairs } = await anon.from('fair_periods').select('name, starts_on');
      expect(fairs![0].starts_on.slice(5, 7)).toBe('01');
      expect((await anon.from('sale_codes').select('code')).data).toEqual([]);
      const admin = await login('admin@hafen.test', 'Admin1234');
      expect((await admin.sb.from('sale_codes').select('code').order('code')).data).toEqual([{ code: 'FREUNDE' }, { code: 'RHEIN5' }]);
    });

    it('a guest finds and books a berth on the seeded harbour; a second booking of it gets 23P01', async () => {
      const guest = client();
      const search = await guest.rpc('search_available_places', {
        p_kind: 'overnight',
        p_arrival: berlinDay(40),
        p_departure: berlinDay(42),
        p_boat_length: 9.4,
        p_boat_width: 3.2,
      });
      expect(search.error).toBeNull();
      expect(search.data.length).toBeGreaterThan(10);
      const areas = search.data.map((p: { area: string }) => Number(p.area));
      expect(areas).toEqual([...areas].sort((a, b) => a - b));
      expect(search.data[0].price_cents).toBe(7140);
      await guest.auth.signInAnonymously();
      const args = {
        p_place_id: search.data[0].place_id,
        p_kind: 'overnight',
        p_arrival: berlinDay(40),
        p_departure: berlinDay(42),
        p_boat: { name: 'Gast', length: 9.4, width: 3.2 },
        p_person: { first_name: 'Greta', last_name: 'Gast', email: 'greta@example.org' },
      };
      const booked = await guest.rpc('create_booking', args);
      expect(booked.error).toBeNull();
      expect(booked.data).toMatchObject({ status: 'unverified', price_cents: 7140 });
      const again = await guest.rpc('create_booking', args);
      expect(again.status).toBe(409);
      expect(again.error).toMatchObject({ code: '23P01', message: 'berth_no_longer_available' });
    });
  });
}
