/**
 * Helpers of the admin content browser tests (news, users, codes, settings): a supabase-js
 * client signed in as a persona (the way the app calls the API), and a small PNG to upload.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { DEMO_ANON_KEY, DEMO_SERVICE_ROLE_KEY } from '../../supabase/local/src/keys.ts';
import { personas, type PersonaName } from '../helpers/personas.ts';
import { apiUrl } from './booking-helpers.ts';
import { signInWithPassword } from '../../supabase/local/test/harness/demo-staff.ts';

// Node 20 has no global WebSocket: supabase-js gets the ws package's (realtime is not used here).
const OPTIONS = { auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as never } };

/** A supabase-js client (no stored session) logged in as a seeded persona. */
export async function clientAs(name: PersonaName | { email: string; password: string }): Promise<SupabaseClient> {
  const client = createClient(apiUrl, DEMO_ANON_KEY, OPTIONS);
  const { email, password } = typeof name === 'string' ? personas[name] : name;
  const { error } = await signInWithPassword(client, { email, password });
  if (error) throw new Error(`login of ${email}: ${error.message}`);
  return client;
}

/** A fresh confirmed account for tests that change roles (never a seeded persona other suites use). */
export async function createAccount(prefix: string, first: string, last: string, locale: 'de' | 'en' = 'de') {
  const email = `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`;
  const password = 'Probe1234';
  const admin = createClient(apiUrl, DEMO_SERVICE_ROLE_KEY, OPTIONS);
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { first_name: first, last_name: last, locale },
  });
  if (error || !data.user) throw new Error(`createUser: ${error?.message}`);
  return { id: data.user.id, email, password };
}

/** A 2x2 PNG (real image bytes) as a Playwright file payload. */
export function pngFile(name = 'titelbild.png') {
  const base64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYGD4z8DAwMDAxMDAAAAbAgIBg3NdsgAAAABJRU5ErkJggg==';
  return { name, mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') };
}

/** Now + hours as a datetime-local value on the Düsseldorf wall clock. */
export function berlinLocal(hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}
