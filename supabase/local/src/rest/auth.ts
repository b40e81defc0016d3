/**
 * Who is calling: the bearer JWT verified as PostgREST's JWT cache does (the signature checked
 * once per token, the expiry on every request, 30 s of clock skew), its role claim the role the
 * request runs as (anon without a token). A bad token is PGRST301, an expired one PGRST303,
 * both 401 with a WWW-Authenticate header (PostgREST's Auth.hs and Auth/JwtCache.hs).
 */
import type { IncomingMessage } from 'node:http';
import type { StackContext } from '../context.ts';
import { bearer } from '../http.ts';
import { JwtError, type Claims } from '../jwt.ts';
import { apiError } from './errors.ts';

export function createAuthenticator(ctx: StackContext) {
  // Verified tokens, as PostgREST's JWT cache: the same key or session token is checked once
  // (signature), its expiry on every request.
  // PostgREST allows 30 s of clock skew on exp.
  const SKEW_MS = 30_000;
  const verified = new Map<string, Claims>();
  async function verify(token: string): Promise<Claims> {
    const hit = verified.get(token);
    if (hit) {
      if (typeof hit.exp === 'number' && hit.exp * 1000 + SKEW_MS <= Date.now()) {
        verified.delete(token);
      } else return hit;
    }
    let claims: Claims;
    try {
      claims = await ctx.jwt.verify(token);
    } catch (error) {
      // jose reports expiry only after the signature checked out: within the skew, accept
      if (!(error instanceof JwtError) || error.reason !== 'expired') throw error;
      const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Claims;
      if (typeof payload.exp !== 'number' || payload.exp * 1000 + SKEW_MS <= Date.now()) throw error;
      claims = payload;
    }
    if (verified.size >= 1000) verified.clear();
    verified.set(token, claims);
    return claims;
  }

  async function authenticate(req: IncomingMessage): Promise<{ role: string; claims: Claims }> {
    const token = bearer(req);
    if (!token) return { role: 'anon', claims: { role: 'anon' } };
    try {
      const claims = await verify(token);
      return { role: typeof claims.role === 'string' && claims.role ? claims.role : 'anon', claims };
    } catch (error) {
      if (error instanceof JwtError) throw jwtError(error, token);
      throw error;
    }
  }

  return authenticate;
}

function jwtError(error: JwtError, token: string) {
  const parts = token.split('.').length;
  let code = 'PGRST301';
  let message: string;
  if (error.reason === 'expired') {
    code = 'PGRST303';
    message = 'JWT expired';
  } else if (parts !== 3) message = `Expected 3 parts in JWT; got ${parts}`;
  else message = 'JWT cryptographic operation failed';
  return apiError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  });
}
