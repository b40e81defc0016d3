import { SignJWT, jwtVerify, errors, type JWTPayload } from 'jose';

/** Claims as GoTrue and PostgREST see them; `role` picks the Postgres role. */
export interface Claims extends JWTPayload {
  role?: string;
  email?: string;
  is_anonymous?: boolean;
  [key: string]: unknown;
}

export class JwtError extends Error {
  constructor(
    message: string,
    readonly reason: 'expired' | 'invalid',
  ) {
    super(message);
  }
}

/** HS256 signing and verification with the stack's secret (GoTrue's and PostgREST's algorithm). */
export function createJwt(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: Claims, expiresInSeconds?: number): Promise<string> {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' });
      if (expiresInSeconds !== undefined && claims.exp === undefined) {
        jwt.setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds);
      }
      return jwt.sign(key);
    },
    /** Verifies signature (HS256 only: `alg: none` and other algorithms are refused) and expiry. */
    async verify(token: string): Promise<Claims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        return payload as Claims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw new JwtError('JWT expired', 'expired');
        throw new JwtError('invalid JWT', 'invalid');
      }
    },
  };
}

export type Jwt = ReturnType<typeof createJwt>;
