/**
 * Accounts (issue 10), through supabase-js against the local stack as the app calls it, on
 * PGlite and PostgreSQL: a customer cannot read (or change) another customer's booking,
 * profile, long-term holding or application by id, nor their avatar; the application status by
 * id carries no personal data; applying queues the receipt e-mail; the avatar bucket refuses
 * files over 5 MB and non-images.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from '../../supabase/local/test/harness/engines.ts';
import { startTestStack } from '../../supabase/local/test/harness/stack.ts';
import type { Stack } from '../../supabase/local/src/stack.ts';

const KUNDE = 'a0000000-0000-4000-8000-000000000003';
const JAN = 'a0000000-0000-4000-8000-000000000005';
const LISA = 'a0000000-0000-4000-8000-000000000006';
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`account privacy on ${engine.name}`, engine.skip))(`account privacy on ${engine.name}`, () => {
    let stack: Stack;
    let kunde: SupabaseClient;
    let jan: SupabaseClient;
    let lisa: SupabaseClient;
    const client = (key = stack.keys.anonKey) =>
      createClient(stack.url, key, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      });
    const login = async (email: string) => {
      const sb = client();
      const { error } = await sb.auth.signInWithPassword({ email, password: 'Kunde1234' });
      if (error) throw new Error(`${email}: ${error.message}`);
      return sb;
    };

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: 'supabase' });
      [kunde, jan, lisa] = await Promise.all([login('kunde@hafen.test'), login('jan.devries@hafen.test'), login('lisa.meyer@hafen.test')]);
    });
    afterAll(async () => {
      await stack?.close();
    });

    it("a customer reads own bookings but not another customer's booking by id", async () => {
      const own = await jan.from('orders').select('id, user_id');
      expect(own.error).toBeNull();
      expect(own.data!.length).toBeGreaterThanOrEqual(3);
      expect(own.data!.every((o) => o.user_id === JAN)).toBe(true);
      const id = own.data![0]!.id as string;
      const other = await kunde.from('orders').select('*').eq('id', id);
      expect(other.error).toBeNull();
      expect(other.data).toEqual([]);
      const single = await kunde.from('orders').select('*').eq('id', id).maybeSingle();
      expect(single.data).toBeNull();
      const anon = await client().from('orders').select('*').eq('id', id);
      expect(anon.data ?? []).toEqual([]);
      // Nor change it.
      const cancel = await kunde.rpc('cancel_booking', { p_order_id: id });
      expect(cancel.error).not.toBeNull();
      // My data holds only my own orders.
      const mine = await kunde.rpc('export_my_data');
      expect(mine.error).toBeNull();
      const orders = (mine.data as { orders: { user_id: string }[] }).orders;
      expect(orders.length).toBeGreaterThan(0);
      expect(orders.every((o) => o.user_id === KUNDE)).toBe(true);
    });

    it("a customer cannot read or change another customer's profile by id", async () => {
      const read = await kunde.from('profiles').select('*').eq('id', JAN);
      expect(read.error).toBeNull();
      expect(read.data).toEqual([]);
      const write = await kunde.from('profiles').update({ first_name: 'Hacked' }).eq('id', JAN).select('id');
      expect(write.data ?? []).toEqual([]);
      const check = await jan.from('profiles').select('first_name').eq('id', JAN).single();
      expect(check.data!.first_name).toBe('Jan');
      const holdings = await kunde.from('long_term_holders').select('*').eq('user_id', JAN);
      expect(holdings.data).toEqual([]);
      const ownHolding = await jan.from('long_term_holders').select('id, place:places(name)').eq('user_id', JAN);
      expect(ownHolding.data).toEqual([expect.objectContaining({ place: { name: 'E07' } })]);
    });

    it("a customer cannot read another customer's application by id; its status by id has no personal data", async () => {
      const own = await lisa.from('long_term_applications').select('id, email, user_id');
      expect(own.data).toHaveLength(1);
      const id = own.data![0]!.id as string;
      const other = await kunde.from('long_term_applications').select('*').eq('id', id);
      expect(other.error).toBeNull();
      expect(other.data).toEqual([]);
      const status = await kunde.rpc('long_term_application_status', { p_id: id });
      expect(status.error).toBeNull();
      expect(Object.keys(status.data[0]).sort()).toEqual([
        'answered_at',
        'created_at',
        'id',
        'place_id',
        'place_name',
        'status',
        'waiting_position',
      ]);
      expect(JSON.stringify(status.data)).not.toContain('lisa');
      expect(JSON.stringify(status.data)).not.toContain('Meyer');
      // Applicants (here Lisa) are the only customers who see their rows.
      expect(own.data![0]!.user_id).toBe(LISA);
    });

    it("applying queues the receipt e-mail with the waiting-list position, in the applicant's language", async () => {
      const { data, error } = await jan.rpc('apply_for_long_term_berth', {
        p_email: 'jan.devries@hafen.test',
        p_first_name: 'Jan',
        p_last_name: 'de Vries',
        p_boat: { name: 'Vrijheid', length: 14.6, width: 4.4 },
        p_locale: 'en',
      });
      expect(error).toBeNull();
      const row = (data as { id: string; waiting_position: number }[])[0]!;
      expect(row.waiting_position).toBeGreaterThanOrEqual(3);
      const admin = client(stack.keys.serviceRoleKey);
      const mail = await admin
        .from('outbox')
        .select('kind, recipient, locale, subject, body_text')
        .eq('recipient', 'jan.devries@hafen.test')
        .eq('kind', 'application_receipt');
      expect(mail.error).toBeNull();
      expect(mail.data).toHaveLength(1);
      expect(mail.data![0]!.subject).toBe('Your application for a long-term berth at Hafen Düsseldorf');
      expect(mail.data![0]!.body_text).toContain(`Your place on the waiting list: ${row.waiting_position}`);
      // Jan sees it with its position; Kunde does not see it at all.
      expect((await jan.from('long_term_applications').select('id').eq('id', row.id)).data).toHaveLength(1);
      expect((await kunde.from('long_term_applications').select('id').eq('id', row.id)).data).toEqual([]);
    });

    it("avatars: own folder only, nobody else's to read or overwrite; over 5 MB or not an image is refused", async () => {
      const up = await jan.storage.from('avatars').upload(`${JAN}/avatar`, png, { contentType: 'image/png', upsert: true });
      expect(up.error).toBeNull();
      expect((await jan.storage.from('avatars').download(`${JAN}/avatar`)).error).toBeNull();
      const peek = await kunde.storage.from('avatars').download(`${JAN}/avatar`);
      expect(peek.error).not.toBeNull();
      const signed = await kunde.storage.from('avatars').createSignedUrl(`${JAN}/avatar`, 60);
      expect(signed.error).not.toBeNull();
      const overwrite = await kunde.storage.from('avatars').upload(`${JAN}/avatar`, png, { contentType: 'image/png', upsert: true });
      expect(overwrite.error).not.toBeNull();
      const big = await kunde.storage
        .from('avatars')
        .upload(`${KUNDE}/avatar`, Buffer.alloc(5 * 1024 * 1024 + 1, 1), { contentType: 'image/jpeg', upsert: true });
      expect(big.error).not.toBeNull();
      expect((big.error as { statusCode?: string }).statusCode).toBe('413');
      const text = await kunde.storage
        .from('avatars')
        .upload(`${KUNDE}/avatar`, Buffer.from('hello'), { contentType: 'text/plain', upsert: true });
      expect(text.error).not.toBeNull();
      const ok = await kunde.storage.from('avatars').upload(`${KUNDE}/avatar`, png, { contentType: 'image/png', upsert: true });
      expect(ok.error).toBeNull();
    });
  });
}
