/**
 * The app's Supabase client (src/lib/supabase-client.ts) loads Realtime, Storage and Functions on
 * first use, once; a load that failed (a chunk not fetched) is tried again on the next call instead
 * of failing for the rest of the page's life.
 */
import { describe, expect, it } from 'vitest';
import { createAppClient, once } from '@/lib/supabase-client';

describe('the app Supabase client', () => {
  it('loads a client once, and again after a failed load', async () => {
    let calls = 0;
    const load = once(async () => {
      calls++;
      if (calls === 1) throw new Error('chunk not fetched');
      return { n: calls };
    });
    await expect(load()).rejects.toThrow('chunk not fetched');
    const first = await load();
    expect(first).toEqual({ n: 2 });
    expect(await load()).toBe(first);
    expect(calls).toBe(2);
  });

  it('gives the same Storage and Functions client on every call, built on first use', async () => {
    const client = createAppClient('http://127.0.0.1:9', 'anon-key', { auth: { persistSession: false, autoRefreshToken: false } });
    const storage = await client.storage();
    expect(await client.storage()).toBe(storage);
    expect(await client.functions()).toBe(await client.functions());
  });
});
