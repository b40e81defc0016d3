import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';

/**
 * Channel token checks as Supabase Realtime makes them (its ChannelsAuthorization): the
 * signature (HS256/384/512 with the project's JWT secret), `exp` in the future, and the
 * claims `role` and `exp` present. Each failure carries Realtime's wording.
 */
export type TokenCheck =
  | { ok: true; claims: Record<string, unknown>; exp: number }
  | { ok: false; kind: 'malformed' | 'signature' | 'expired' | 'missing_claims'; message: string };

export async function checkToken(token: unknown, secret: Uint8Array): Promise<TokenCheck> {
  if (typeof token !== 'string') return { ok: false, kind: 'malformed', message: 'The token provided is not a valid JWT' };
  const clean = token.replace(/\s/g, '');
  let header: { alg?: string };
  try {
    decodeJwt(clean);
    header = decodeProtectedHeader(clean);
  } catch {
    return { ok: false, kind: 'malformed', message: 'The token provided is not a valid JWT' };
  }
  let claims: Record<string, unknown>;
  try {
    const alg = header.alg ?? '';
    if (!['HS256', 'HS384', 'HS512'].includes(alg)) throw new Error('algorithm');
    const { payload } = await compactVerify(clean, secret, { algorithms: [alg] });
    claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
  } catch {
    return { ok: false, kind: 'signature', message: 'Failed to validate JWT signature' };
  }
  const now = Math.floor(Date.now() / 1000);
  if (claims.exp !== undefined) {
    if (typeof claims.exp !== 'number' || !(claims.exp > now)) {
      const ago = typeof claims.exp === 'number' ? now - Math.round(claims.exp) : 0;
      return { ok: false, kind: 'expired', message: `Token has expired ${ago} seconds ago` };
    }
  }
  if (claims.role === undefined || claims.exp === undefined) {
    return { ok: false, kind: 'missing_claims', message: 'Fields `role` and `exp` are required in JWT' };
  }
  return { ok: true, claims, exp: Math.round(claims.exp as number) };
}
