import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { EngineName } from './engines.ts';
import { startTestStack } from './stack.ts';

const fixture = resolve(import.meta.dirname, '../fixtures/storage');
const options = { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as never } };

export interface StorageTestUser {
  id: string;
  client: SupabaseClient;
}

/** The fixture's three users: an admin and two customers (clients set by startStorageFixture). */
export function storageUsers() {
  const user = (): StorageTestUser => ({ id: randomUUID(), client: undefined as unknown as SupabaseClient });
  return { admin: user(), alice: user(), bob: user() };
}

/**
 * A stack on a copy of fixtures/storage (its buckets and policies), with service-role and anon
 * clients, and a signed-in client for each user (`app_metadata.role` as given).
 */
export async function startStorageFixture(engine: EngineName, users: (readonly [StorageTestUser, string])[]) {
  const dir = mkdtempSync(join(tmpdir(), 'hafen-storage-test-'));
  const workdir = join(dir, 'supabase');
  cpSync(fixture, workdir, { recursive: true });
  const stack = await startTestStack({ engine, workdir });
  const service = createClient(stack.url, stack.keys.serviceRoleKey, options);
  const anon = createClient(stack.url, stack.keys.anonKey, options);
  for (const [user, role] of users) {
    const token = await stack.context.jwt.sign({ sub: user.id, role: 'authenticated', aud: 'authenticated', app_metadata: { role } }, 3600);
    user.client = createClient(stack.url, stack.keys.anonKey, { ...options, accessToken: async () => token });
  }
  return {
    stack,
    dir,
    service,
    anon,
    async close() {
      await stack.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
