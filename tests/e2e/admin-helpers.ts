import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, personaToken } from './booking-helpers.ts';

/** A 2 x 2 PNG, enough for an upload test. */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

export const adminToken = () => personaToken(personas.admin.email, personas.admin.password);
export const harbourToken = () => personaToken(personas.harbour.email, personas.harbour.password);

/** A PostgREST call as a persona (token), answering status and body. */
export async function rest(token: string, path: string, init: { method?: string; body?: unknown; prefer?: string } = {}) {
  const res = await fetch(`${apiUrl}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: DEMO_ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(init.prefer ? { prefer: init.prefer } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5).toUpperCase()}`;

/** A fresh berth made through the API as the admin (no orders, no holder). */
export async function createBerth(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const token = await adminToken();
  const res = await rest(token, 'places', {
    method: 'POST',
    body: { name, pier: 'Z', width: 4, length: 12, ...extra },
    prefer: 'return=representation',
  });
  if (res.status !== 201) throw new Error(`berth not created: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { id: string }[])[0].id;
}
