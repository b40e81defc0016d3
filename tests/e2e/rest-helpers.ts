/** The REST API as the browser tests call it directly: a table or RPC with a persona's token. */
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, personaToken } from './booking-helpers.ts';

/** One REST request: its status and its parsed body (null when empty). */
export async function rest<T>(
  path: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; data: T }> {
  const res = await fetch(`${apiUrl}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}

/** A database function through /rest/v1/rpc. */
export const rpc = <T>(name: string, body: Record<string, unknown>, token: string) =>
  rest<T>(`rpc/${name}`, token, { method: 'POST', body });

/** The demo harbour staff's access token (second factor done). */
export const staffToken = () => personaToken(personas.harbour.email, personas.harbour.password);
