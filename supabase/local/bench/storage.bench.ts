import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { startStack } from '../src/stack.ts';
import { summarise, type BenchRow } from './types.ts';

const fixture = resolve(import.meta.dirname, '../test/fixtures/storage');

/** Upload and download of a 1 MB image through supabase-js (storage.objects row + file + RLS). */
export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hafen-bench-storage-'));
  const workdir = join(dir, 'supabase');
  cpSync(fixture, workdir, { recursive: true });
  const stack = await startStack({ workdir, inMemory: true, port: 0, mailPort: 0, smtpPort: 0 });
  try {
    const token = await stack.context.jwt.sign(
      { sub: '00000000-0000-4000-8000-000000000001', role: 'authenticated', app_metadata: { role: 'admin' } },
      3600,
    );
    const client = createClient(stack.url, stack.keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
      accessToken: async () => token,
    });
    const images = client.storage.from('images');
    const image = randomBytes(1024 * 1024);
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(image);
    const runs = 30;
    const up: number[] = [];
    const down: number[] = [];
    for (let i = -3; i < runs; i++) {
      const t = performance.now();
      const { error } = await images.upload(`bench/${i}.jpg`, image, { contentType: 'image/jpeg', upsert: true });
      if (error) throw error;
      if (i >= 0) up.push(performance.now() - t);
    }
    for (let i = -3; i < runs; i++) {
      const t = performance.now();
      const { data, error } = await images.download(`bench/${Math.max(i, 0)}.jpg`);
      if (error) throw error;
      if (data!.size !== image.length) throw new Error('short download');
      if (i >= 0) down.push(performance.now() - t);
    }
    const note = `PGlite, supabase-js, authenticated admin (RLS policies), ${runs} sequential runs`;
    const upMs = summarise('storage upload 1 MB image', 'ms', up, note);
    const downMs = summarise('storage download 1 MB image', 'ms', down, note);
    const upRate = summarise(
      'storage upload 1 MB image',
      'per s',
      up.map((ms) => 1000 / ms),
      note,
    );
    const downRate = summarise(
      'storage download 1 MB image',
      'per s',
      down.map((ms) => 1000 / ms),
      note,
    );
    return [upRate, upMs, downRate, downMs];
  } finally {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
