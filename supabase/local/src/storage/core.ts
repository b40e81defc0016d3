import type { IncomingMessage } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT, jwtVerify, decodeJwt } from 'jose';
import type { StackContext } from '../context.ts';
import type { Queryable } from '../db/types.ts';
import { withRequest } from '../db/request.ts';
import { HttpError, forwardedHeaders } from '../http.ts';
import { errors, mapDbError } from './errors.ts';
import { FileStore, mustBeValidKey } from './files.ts';
import { BUCKET_COLUMNS, OBJECT_COLUMNS, Rollback, parseConfigSize, type BucketRow, type Caller, type ObjectRow } from './shared.ts';

export type StorageCore = ReturnType<typeof createStorageCore>;

/**
 * What every endpoint uses: the file store, the caller from the token, database access as the
 * caller (RLS decides), bucket and object lookups and the signed-URL tokens.
 */
export function createStorageCore(ctx: StackContext) {
  const tempRoot = ctx.inMemory ? mkdtempSync(join(tmpdir(), 'hafen-storage-')) : undefined;
  const files = new FileStore(tempRoot ?? join(ctx.dataDir, 'storage'));
  const secret = new TextEncoder().encode(ctx.keys.jwtSecret);
  const globalLimit = parseConfigSize(ctx.config.storage.fileSizeLimit || '50MiB');
  const serviceClaims = decodeJwt(ctx.keys.serviceRoleKey) as Record<string, unknown>;
  const admin: Caller = { role: 'service_role', claims: serviceClaims, jwt: ctx.keys.serviceRoleKey, isAuthenticated: true };

  // ------------------------------------------------------------------ database access
  async function run<T>(caller: Caller, req: IncomingMessage | undefined, operation: string, fn: (tx: Queryable) => Promise<T>) {
    try {
      return await withRequest(
        ctx.db,
        {
          role: caller.role,
          claims: caller.claims,
          method: req?.method ?? '',
          path: req?.url ?? '',
          headers: req ? forwardedHeaders(req, ctx.config.api.trustedProxies) : {},
        },
        async (tx) => {
          await tx.query(
            `select set_config('request.jwt.claim.role', $1, true), set_config('request.jwt.claim.sub', $2, true),
                    set_config('request.jwt', $3, true), set_config('storage.operation', $4, true),
                    set_config('storage.allow_delete_query', 'true', true)`,
            [caller.role, String(caller.claims.sub ?? ''), caller.jwt, operation],
          );
          return fn(tx);
        },
      );
    } catch (error) {
      if (error instanceof Rollback || error instanceof HttpError) throw error;
      throw mapDbError(error);
    }
  }

  /** Storage's testPermission: run the write as the caller, then roll it back. */
  async function testPermission(caller: Caller, req: IncomingMessage, operation: string, fn: (tx: Queryable) => Promise<unknown>) {
    try {
      await run(caller, req, operation, async (tx) => {
        await fn(tx);
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  }

  async function authenticate(req: IncomingMessage, allowInvalid = false): Promise<Caller> {
    const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const anon: Caller = { role: 'anon', claims: { role: 'anon' }, jwt: '', isAuthenticated: false };
    if (!token && allowInvalid) return anon;
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256', 'HS384', 'HS512'] });
      const role = typeof payload.role === 'string' ? payload.role : 'anon';
      if (!['anon', 'authenticated', 'service_role'].includes(role)) throw new Error(`role "${role}" does not exist`);
      return { role, claims: payload as Record<string, unknown>, jwt: token, owner: payload.sub, isAuthenticated: true };
    } catch (error) {
      if (allowInvalid) return anon;
      throw errors.accessDenied((error as Error).message);
    }
  }

  async function findBucket(caller: Caller, req: IncomingMessage | undefined, id: string, filters: { isPublic?: boolean } = {}) {
    const { rows } = await run(caller, req, 'storage.bucket.get', (tx) =>
      tx.query<BucketRow>(
        `select ${BUCKET_COLUMNS} from storage.buckets where id = $1 ${filters.isPublic !== undefined ? 'and public = $2' : ''} limit 1`,
        filters.isPublic !== undefined ? [id, filters.isPublic] : [id],
      ),
    );
    return rows[0];
  }

  async function findObject(caller: Caller, req: IncomingMessage | undefined, bucket: string, name: string) {
    mustBeValidKey(name);
    const { rows } = await run(caller, req, 'storage.object.get', (tx) =>
      tx.query<ObjectRow>(`select ${OBJECT_COLUMNS} from storage.objects where name = $1 and bucket_id = $2 limit 1`, [name, bucket]),
    );
    if (!rows[0]) throw errors.noSuchKey();
    return rows[0];
  }

  // ------------------------------------------------------------------ signed URLs
  async function signToken(payload: Record<string, unknown>, expiresIn: number) {
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${Math.floor(expiresIn)}s`)
      .sign(secret);
  }

  function checkExpiresIn(value: unknown): number {
    const n = Number(value);
    if (typeof value !== 'number' || !Number.isFinite(n) || Math.floor(n) < 1 || !Number.isSafeInteger(Math.floor(n))) {
      throw errors.invalidParameter('expiresIn');
    }
    return Math.floor(n);
  }

  async function verifySigned(token: string | null, bucket: string, name: string, scope: 'download' | 'upload') {
    if (!token) throw errors.missingParameter('token');
    let payload: Record<string, unknown>;
    try {
      payload = (await jwtVerify(token, secret, { algorithms: ['HS256', 'HS384', 'HS512'] })).payload as Record<string, unknown>;
    } catch (error) {
      throw errors.invalidJwt((error as Error).message);
    }
    const ok =
      scope === 'upload'
        ? payload.scope === 'upload' || (payload.scope === undefined && 'upsert' in payload)
        : payload.scope === 'download' || (payload.scope === undefined && !('upsert' in payload));
    if (!ok) throw errors.invalidSignature(`Token is not scoped for ${scope}`);
    if (payload.url !== `${bucket}/${name}`) throw errors.invalidSignature();
    if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) throw errors.expiredSignature();
    return payload;
  }

  return {
    ctx,
    tempRoot,
    files,
    globalLimit,
    admin,
    run,
    testPermission,
    authenticate,
    findBucket,
    findObject,
    signToken,
    checkExpiresIn,
    verifySigned,
  };
}
