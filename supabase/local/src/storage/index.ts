import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative, resolve, sep } from 'node:path';
import { SignJWT, jwtVerify, decodeJwt } from 'jose';
import type { Service, StackContext } from '../context.ts';
import type { Queryable } from '../db/types.ts';
import { withRequest } from '../db/request.ts';
import { HttpError, forwardedHeaders, readJson, sendJson } from '../http.ts';
import { StorageError, errors, mapDbError } from './errors.ts';
import { FileStore, mustBeValidBucketName, mustBeValidKey } from './files.ts';

/** Who is calling, from the bearer token, as Storage's JWT plugin decides it. */
interface Caller {
  role: string;
  claims: Record<string, unknown>;
  jwt: string;
  owner?: string;
  isAuthenticated: boolean;
}

interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: Record<string, unknown> | null;
  user_metadata: Record<string, unknown> | null;
  created_at: string | null;
  updated_at: string | null;
  last_accessed_at: string | null;
}

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
  type: string;
}

/** Timestamps as Storage's JSON shows them (ISO 8601, UTC, milliseconds). */
const iso = (column: string, alias = column) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${alias}`;
const OBJECT_COLUMNS = `id, name, bucket_id, owner, owner_id, version, metadata, user_metadata,
  ${iso('created_at')}, ${iso('updated_at')}, ${iso('last_accessed_at')}`;
const BUCKET_COLUMNS = `id, name, owner, public, file_size_limit, allowed_mime_types,
  ${iso('created_at')}, ${iso('updated_at')}, 'STANDARD'::text as type`;

/** Storage's default lifetime of a signed upload URL (UPLOAD_SIGNED_URL_EXPIRATION_TIME). */
const UPLOAD_SIGNED_URL_EXPIRES_IN = 7200;
const MAX_OBJECTS_PER_REQUEST = 1000;
const EMPTY_FOLDER = '.emptyFolderPlaceholder';

/** The CLI's size notation in config.toml ("50MiB", "5MB"): binary units, like go-units. */
export function parseConfigSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$/i.exec(text);
  if (!m) throw new Error(`invalid size "${text}" in config.toml`);
  const power = { '': 0, k: 1, m: 2, g: 3, t: 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * 1024 ** power);
}

/** Storage's parser for a bucket's file_size_limit given as text ("20MB", decimal units). */
function parseBucketSize(value: string): number {
  const m = /(^[0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!m) throw errors.invalidFileSizeLimit();
  const n = +parseFloat(m[1]).toPrecision(3);
  return n * { GB: 1e9, MB: 1e6, KB: 1000, B: 1 }[m[2].toUpperCase() as 'GB' | 'MB' | 'KB' | 'B'];
}

const MIME_BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.avif': 'image/avif',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.csv': 'text/csv',
};

const MIME_RULE = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

function validateMimeType(mime: string, allowed: string[]) {
  const [type, ext] = mime.split('/');
  if (ext === undefined) throw errors.invalidMimeType(mime);
  for (const a of allowed) {
    const [aType, aExt] = a.split('/');
    if (aType === type && (aExt === '*' || aExt === ext)) return;
  }
  throw errors.invalidMimeType(mime);
}

function parseUserMetadata(header: string | undefined): Record<string, unknown> | undefined {
  if (!header) return undefined;
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Reads the request body; beyond `limit` bytes the rest is drained and `onOverflow` thrown. */
async function readCapped(req: IncomingMessage, limit: number, onOverflow: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) over = true;
    if (!over) chunks.push(chunk as Buffer);
    // Bounded drain: give up on absurd bodies instead of reading forever.
    if (over && size > limit + 512 * 1024 * 1024) {
      req.destroy();
      break;
    }
  }
  if (over) throw onOverflow();
  return Buffer.concat(chunks);
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidKey(raw);
  }
}

const toNumber = (v: string | number | null) => (v === null || v === undefined ? null : Number(v));

function bucketJson(b: BucketRow) {
  return { ...b, file_size_limit: toNumber(b.file_size_limit) };
}

class Rollback extends Error {}

export function createStorageService(ctx: StackContext): Service {
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

  // ------------------------------------------------------------------ uploads
  interface IncomingFile {
    data: Buffer;
    mimetype: string;
    cacheControl: string;
    userMetadata?: Record<string, unknown>;
  }

  async function readUpload(req: IncomingMessage, bucket: BucketRow, name: string): Promise<IncomingFile> {
    const bucketLimit = toNumber(bucket.file_size_limit);
    const maxSize = name.endsWith(EMPTY_FOLDER) ? 0 : Math.min(globalLimit, bucketLimit ?? Infinity);
    const allowed = bucket.allowed_mime_types ?? [];
    const checkMime = (mime: string) => {
      if (allowed.length > 0 && !name.endsWith(EMPTY_FOLDER)) validateMimeType(mime, allowed);
    };
    const contentType = req.headers['content-type'] ?? '';
    if (contentType.startsWith('multipart/form-data')) {
      const body = await readCapped(req, maxSize + 1024 * 1024, () => errors.entityTooLarge());
      let form: FormData;
      try {
        form = await new Request('http://storage.local/', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(body) }).formData();
      } catch (error) {
        throw errors.noContent((error as Error).message);
      }
      let file: File | undefined;
      const fields: Record<string, string> = {};
      for (const [key, value] of form) {
        if (typeof value === 'string') fields[key] = value;
        else file ??= value as File;
      }
      if (!file) throw errors.noContent();
      const mimetype = fields.contentType || file.type || 'application/octet-stream';
      checkMime(mimetype);
      const customMd = fields.metadata ?? fields.userMetadata;
      if (customMd !== undefined && Buffer.byteLength(customMd) > 1024 * 1024) throw errors.entityTooLarge(undefined, 'user_metadata');
      let userMetadata: Record<string, unknown> | undefined;
      try {
        userMetadata = customMd !== undefined ? JSON.parse(customMd) : undefined;
      } catch {
        userMetadata = undefined;
      }
      if (file.size > maxSize) throw errors.entityTooLarge();
      return {
        data: Buffer.from(await file.arrayBuffer()),
        mimetype,
        cacheControl: fields.cacheControl ? `max-age=${fields.cacheControl}` : 'no-cache',
        userMetadata,
      };
    }
    const mimetype = contentType || 'application/octet-stream';
    checkMime(mimetype);
    const userMetadata = parseUserMetadata(req.headers['x-metadata'] as string | undefined);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxSize) {
      await readCapped(req, 0, () => errors.entityTooLarge()).catch(() => {});
      throw errors.entityTooLarge();
    }
    const data = await readCapped(req, maxSize, () => errors.entityTooLarge());
    return { data, mimetype, cacheControl: (req.headers['cache-control'] as string | undefined) ?? 'no-cache', userMetadata };
  }

  /** Insert (or upsert) the object row as `caller`, then roll back: does RLS allow the write? */
  async function canUpload(
    caller: Caller,
    req: IncomingMessage,
    row: { bucket: string; name: string; owner?: string; upsert: boolean; metadata?: Record<string, unknown>; userMetadata?: Record<string, unknown> },
  ) {
    const values = [row.bucket, row.name, isUuid(row.owner) ? row.owner : null, row.owner ?? null, row.metadata ?? null, row.userMetadata ?? null];
    try {
      await testPermission(caller, req, 'storage.object.upload', (tx) =>
        tx.query(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
           values ($1, $2, $3, $4, $5, $6, '1')
           ${row.upsert ? `on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
             version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id returning id` : ''}`,
          values,
        ),
      );
    } catch (error) {
      if (error instanceof StorageError && (error.body as { code: string }).code === 'ResourceAlreadyExists') throw errors.keyAlreadyExists();
      throw error;
    }
  }

  /** Writes the file, then records the object row as the storage admin (as Storage's uploader). */
  async function storeObject(
    req: IncomingMessage | undefined,
    bucket: string,
    name: string,
    file: { data: Buffer; mimetype: string; cacheControl: string } | { copyFrom: ObjectRow },
    owner: string | undefined,
    userMetadata: Record<string, unknown> | null | undefined,
  ): Promise<ObjectRow> {
    const version = randomUUID();
    let metadata: Record<string, unknown>;
    if ('copyFrom' in file) {
      const src = file.copyFrom;
      await files.copy({ bucket: src.bucket_id, name: src.name, version: src.version ?? '' }, { bucket, name, version });
      metadata = { ...(src.metadata ?? {}), lastModified: new Date().toISOString() };
    } else {
      const { eTag, size } = await files.write(bucket, name, version, file.data);
      metadata = {
        eTag,
        size,
        mimetype: file.mimetype,
        cacheControl: file.cacheControl,
        lastModified: new Date().toISOString(),
        contentLength: size,
        httpStatusCode: 200,
      };
    }
    try {
      const { previous, row } = await run(admin, req, 'storage.object.upload', async (tx) => {
        const prev = await tx.query<{ version: string | null }>(
          `select version from storage.objects where bucket_id = $1 and name = $2 for update`,
          [bucket, name],
        );
        const { rows } = await tx.query<ObjectRow>(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
           values ($1, $2, $3, $4, $5, $6, $7)
           on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
             version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now()
           returning ${OBJECT_COLUMNS}`,
          [bucket, name, isUuid(owner) ? owner : null, owner ?? null, metadata, userMetadata ?? null, version],
        );
        return { previous: prev.rows[0]?.version, row: rows[0] };
      });
      if (previous && previous !== version) await files.remove(bucket, name, previous);
      return row;
    } catch (error) {
      await files.remove(bucket, name, version);
      throw error;
    }
  }

  async function upload(
    req: IncomingMessage,
    caller: Caller,
    bucketId: string,
    name: string,
    opts: { upsert: boolean; owner?: string; checkAs: Caller },
  ) {
    mustBeValidKey(name);
    files.path(bucketId, name, 'version');
    const bucket = await findBucket(admin, req, bucketId);
    if (!bucket) {
      await readCapped(req, 0, () => errors.noSuchBucket()).catch(() => {});
      throw errors.noSuchBucket();
    }
    const file = await readUpload(req, bucket, name);
    await canUpload(opts.checkAs, req, {
      bucket: bucketId,
      name,
      owner: opts.owner,
      upsert: opts.upsert,
      metadata: { mimetype: file.mimetype, contentLength: file.data.length },
      userMetadata: file.userMetadata,
    });
    const row = await storeObject(req, bucketId, name, file, opts.owner, file.userMetadata);
    return { id: row.id, key: `${bucketId}/${name}` };
  }

  // ------------------------------------------------------------------ downloads
  async function sendObject(
    req: IncomingMessage,
    res: ServerResponse,
    obj: ObjectRow,
    opts: { download?: string | null; expires?: string; head?: boolean },
  ) {
    const md = (obj.metadata ?? {}) as Record<string, unknown>;
    const size = obj.version ? await files.size(obj.bucket_id, obj.name, obj.version) : undefined;
    if (size === undefined) {
      sendJson(res, 400, { error: 'Not found', message: 'The resource was not found', statusCode: '404', code: 'NoSuchKey' }, { 'cache-control': 'no-store' });
      return;
    }
    let mimetype = String(md.mimetype ?? 'application/octet-stream');
    if (mimetype.includes('text/html')) mimetype = 'text/plain';
    const headers: Record<string, string> = {
      'accept-ranges': 'bytes',
      'content-type': mimetype,
      'x-robots-tag': 'none',
    };
    if (md.eTag) headers.etag = String(md.eTag);
    const lastModified = new Date(String(md.lastModified ?? obj.updated_at ?? ''));
    if (!Number.isNaN(lastModified.getTime())) headers['last-modified'] = lastModified.toUTCString();
    if (opts.expires) headers.expires = opts.expires;
    else if (md.cacheControl) headers['cache-control'] = String(md.cacheControl);
    if (opts.download !== undefined && opts.download !== null) {
      headers['content-disposition'] =
        opts.download === ''
          ? 'attachment;'
          : `attachment; filename=${encodeURIComponent(opts.download)}; filename*=UTF-8''${encodeURIComponent(opts.download)}`;
    }
    if (md.eTag && req.headers['if-none-match'] === md.eTag) {
      res.writeHead(304, headers).end();
      return;
    }
    let start = 0;
    let end = size - 1;
    let status = 200;
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range && size > 0 && (range[1] || range[2])) {
      if (range[1]) {
        start = Number(range[1]);
        end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(range[2]));
      }
      if (start > end || start >= size) {
        throw new StorageError(400, 'InvalidRange', 'invalid range provided', 'invalid_range');
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['content-length'] = String(size === 0 ? 0 : end - start + 1);
    res.writeHead(status, headers);
    if (opts.head || size === 0) {
      res.end();
      return;
    }
    const s = files.stream(obj.bucket_id, obj.name, obj.version!, status === 206 ? { start, end } : undefined);
    await new Promise<void>((resolve) => {
      s.on('error', () => {
        res.destroy();
        resolve();
      });
      res.on('close', () => {
        s.destroy();
        resolve();
      });
      s.pipe(res);
    });
  }

  function infoBody(obj: ObjectRow) {
    const md = (obj.metadata ?? {}) as Record<string, unknown>;
    return {
      id: obj.id,
      name: obj.name,
      version: obj.version,
      bucket_id: obj.bucket_id,
      size: md.size ?? null,
      content_type: md.mimetype ?? null,
      cache_control: md.cacheControl ?? null,
      etag: md.eTag ?? null,
      metadata: obj.user_metadata,
      last_modified: obj.updated_at,
      created_at: obj.created_at,
    };
  }

  /** GET/HEAD of an object for a caller (Storage's getObject / getObjectInfo rules). */
  async function resolveForRead(req: IncomingMessage, caller: Caller, bucketId: string, name: string, publicRoute: boolean) {
    if (publicRoute) {
      const bucket = await findBucket(admin, req, bucketId, { isPublic: true });
      if (!bucket) throw errors.noSuchBucket();
      return findObject(admin, req, bucketId, name);
    }
    const bucket = await findBucket(admin, req, bucketId);
    if (!caller.isAuthenticated && !bucket?.public) throw errors.noSuchBucket();
    if (!bucket) throw errors.noSuchBucket();
    return findObject(bucket.public ? admin : caller, req, bucketId, name);
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

  // ------------------------------------------------------------------ listing
  async function search(
    caller: Caller,
    req: IncomingMessage,
    bucketId: string,
    body: { prefix?: string; limit?: number; offset?: number; search?: string; sortBy?: { column?: string; order?: string } },
  ) {
    let prefix = body.prefix ?? '';
    if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
    const searchText = body.search ?? '';
    const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1500);
    const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
    const column = ['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(String(body.sortBy?.column ?? 'name').toLowerCase())
      ? String(body.sortBy?.column ?? 'name').toLowerCase()
      : 'name';
    const asc = String(body.sortBy?.order ?? 'asc').toLowerCase() === 'asc';
    const full = prefix + searchText;
    const escaped = full.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    const { rows } = await run(caller, req, 'storage.object.list', (tx) =>
      tx.query<ObjectRow>(
        `select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and lower(name) like $2 || '%'`,
        [bucketId, escaped],
      ),
    );
    const lower = (s: string) => s.toLowerCase();
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const folders = new Map<string, string>();
    const fileRows: ObjectRow[] = [];
    for (const row of rows) {
      const rest = row.name.slice(full.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) {
        const folder = row.name.slice(prefix.length, full.length + slash);
        if (!folders.has(lower(folder))) folders.set(lower(folder), folder);
      } else fileRows.push(row);
    }
    interface Entry {
      name: string;
      id: string | null;
      updated_at: string | null;
      created_at: string | null;
      last_accessed_at: string | null;
      metadata: Record<string, unknown> | null;
    }
    const folderEntries: Entry[] = [...folders.values()].map((name) => ({
      name,
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    }));
    const fileEntries: Entry[] = fileRows.map((r) => ({
      name: r.name.slice(prefix.length),
      id: r.id,
      updated_at: r.updated_at,
      created_at: r.created_at,
      last_accessed_at: r.last_accessed_at,
      metadata: r.metadata,
    }));
    let all: Entry[];
    if (column === 'name') {
      all = [...folderEntries, ...fileEntries].sort((a, b) => cmp(lower(a.name), lower(b.name)) * (asc ? 1 : -1));
    } else {
      const key = column as 'updated_at' | 'created_at' | 'last_accessed_at';
      folderEntries.sort((a, b) => cmp(a.name, b.name) * (asc ? 1 : -1));
      fileEntries.sort((a, b) => cmp(String(a[key] ?? ''), String(b[key] ?? '')) * (asc ? 1 : -1));
      all = [...folderEntries, ...fileEntries];
    }
    return all.slice(offset, offset + limit);
  }

  // ------------------------------------------------------------------ buckets
  async function bucketSize(value: unknown): Promise<number | null | undefined> {
    if (value === null) return null;
    if (typeof value !== 'number' && typeof value !== 'string') return undefined;
    const n = typeof value === 'string' ? parseBucketSize(value) : value;
    if (n > globalLimit) throw errors.entityTooLarge();
    return n;
  }

  function checkMimeList(list: unknown): string[] | null | undefined {
    if (list === null) return null;
    if (!Array.isArray(list)) return undefined;
    const filtered = list.filter((m) => m).map(String);
    for (const type of filtered) {
      if (type.length > 1000 || !MIME_RULE.test(type)) throw errors.invalidMimeType(type);
    }
    return filtered;
  }

  async function syncConfigBuckets() {
    const configured = Object.entries(ctx.config.storage.buckets);
    if (configured.length === 0) return;
    await run(admin, undefined, 'storage.bucket.seed', async (tx) => {
      for (const [name, b] of configured) {
        const limit = typeof b.file_size_limit === 'string' ? parseConfigSize(b.file_size_limit) : typeof b.file_size_limit === 'number' ? b.file_size_limit : null;
        const mimes = Array.isArray(b.allowed_mime_types) ? b.allowed_mime_types.map(String) : null;
        await tx.query(
          `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values ($1, $1, $2, $3, $4)
           on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
             allowed_mime_types = excluded.allowed_mime_types, updated_at = now()`,
          [name, b.public === true, limit, mimes],
        );
      }
    });
    for (const [name, b] of configured) {
      if (typeof b.objects_path === 'string' && b.objects_path) await seedObjects(name, resolve(ctx.workdir, b.objects_path));
    }
  }

  /** `objects_path` of a config.toml bucket: its files are uploaded (as `supabase seed buckets`). */
  async function seedObjects(bucket: string, folder: string) {
    if (!existsSync(folder)) {
      ctx.log.warn(`storage: objects_path ${folder} of bucket ${bucket} does not exist`);
      return;
    }
    for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const full = join(entry.parentPath, entry.name);
      const name = relative(folder, full).split(sep).join('/');
      try {
        mustBeValidKey(name);
        const data = readFileSync(full);
        const { rows } = await run(admin, undefined, 'storage.object.seed', (tx) =>
          tx.query<{ size: string | null }>(`select metadata->>'size' as size from storage.objects where bucket_id = $1 and name = $2`, [bucket, name]),
        );
        if (rows[0] && Number(rows[0].size) === data.length) continue;
        const mimetype = MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
        await storeObject(undefined, bucket, name, { data, mimetype, cacheControl: 'max-age=3600' }, undefined, undefined);
      } catch (error) {
        ctx.log.warn(`storage: could not upload ${full} to ${bucket}: ${(error as Error).message}`);
      }
    }
  }

  const ready = syncConfigBuckets().catch((error) => {
    ctx.log.error(`storage: could not create the buckets from config.toml: ${(error as Error).message}`);
  });

  // ------------------------------------------------------------------ routes
  async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    await ready;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const m = (re: RegExp) => re.exec(path);
    let r: RegExpExecArray | null;

    // ---- buckets
    if ((r = m(/^\/bucket\/?$/))) {
      if (method === 'GET') {
        const caller = await authenticate(req);
        const q = url.searchParams;
        const conditions: string[] = [];
        const values: unknown[] = [];
        const search = q.get('search');
        if (search) {
          values.push(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
          conditions.push(`name ilike $${values.length}`);
        }
        const sortColumn = q.get('sortColumn');
        const allowedSort = ['id', 'name', 'created_at', 'updated_at'];
        const order = sortColumn && allowedSort.includes(sortColumn)
          ? ` order by ${sortColumn} ${q.get('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc'}`
          : '';
        let page = '';
        if (q.has('limit')) {
          values.push(Number(q.get('limit')));
          page += ` limit $${values.length}`;
        }
        if (q.has('offset')) {
          values.push(Number(q.get('offset')));
          page += ` offset $${values.length}`;
        }
        const { rows } = await run(caller, req, 'storage.bucket.list', (tx) =>
          tx.query<BucketRow>(
            `select ${BUCKET_COLUMNS} from storage.buckets ${conditions.length ? `where ${conditions.join(' and ')}` : ''}${order}${page}`,
            values,
          ),
        );
        sendJson(res, 200, rows.map(bucketJson));
        return;
      }
      if (method === 'POST') {
        const caller = await authenticate(req);
        const body = (await readJson<Record<string, unknown>>(req)) ?? {};
        const name = typeof body.name === 'string' ? body.name : undefined;
        if (!name) throw errors.invalidRequest("body must have required property 'name'");
        if (name.trim() !== name) throw errors.invalidBucketName();
        mustBeValidBucketName(name);
        const id = typeof body.id === 'string' && body.id ? body.id : name;
        const limit = await bucketSize(body.file_size_limit);
        const mimes = checkMimeList(body.allowed_mime_types);
        try {
          await run(caller, req, 'storage.bucket.create', (tx) =>
            tx.query(
              `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
               values ($1, $2, $3, $4, $5, $6, $7)`,
              [id, name, isUuid(caller.owner) ? caller.owner : null, caller.owner ?? null, body.public === true, limit ?? null, mimes ?? null],
            ),
          );
        } catch (error) {
          if (error instanceof StorageError && (error.body as { code: string }).code === 'ResourceAlreadyExists') throw errors.bucketAlreadyExists();
          throw error;
        }
        sendJson(res, 200, { name });
        return;
      }
    }
    if ((r = m(/^\/bucket\/([^/]+)\/empty\/?$/)) && method === 'POST') {
      const caller = await authenticate(req);
      const id = decodeName(r[1]);
      if (!(await findBucket(caller, req, id))) throw errors.noSuchBucket();
      const { rows } = await run(admin, req, 'storage.bucket.empty', (tx) =>
        tx.query<{ name: string; version: string | null }>(`delete from storage.objects where bucket_id = $1 returning name, version`, [id]),
      );
      for (const row of rows) await files.remove(id, row.name, row.version);
      sendJson(res, 200, { message: 'Successfully emptied' });
      return;
    }
    if ((r = m(/^\/bucket\/([^/]+)\/?$/))) {
      const id = decodeName(r[1]);
      if (method === 'GET') {
        const caller = await authenticate(req);
        const bucket = await findBucket(caller, req, id);
        if (!bucket) throw errors.noSuchBucket();
        sendJson(res, 200, bucketJson(bucket));
        return;
      }
      if (method === 'PUT') {
        const caller = await authenticate(req);
        mustBeValidBucketName(id);
        const body = (await readJson<Record<string, unknown>>(req)) ?? {};
        const fields: [string, unknown][] = [];
        if (typeof body.public === 'boolean') fields.push(['public', body.public]);
        const limit = await bucketSize(body.file_size_limit);
        if (limit !== undefined) fields.push(['file_size_limit', limit]);
        const mimes = checkMimeList(body.allowed_mime_types);
        if (mimes !== undefined) fields.push(['allowed_mime_types', mimes]);
        if (fields.length === 0) throw errors.noContent();
        const result = await run(caller, req, 'storage.bucket.update', (tx) =>
          tx.query(
            `update storage.buckets set ${fields.map(([c], i) => `${c} = $${i + 1}`).join(', ')}, updated_at = now()
             where id = $${fields.length + 1} returning id`,
            [...fields.map(([, v]) => v), id],
          ),
        );
        if (result.rows.length === 0) throw errors.noSuchBucket();
        sendJson(res, 200, { message: 'Successfully updated' });
        return;
      }
      if (method === 'DELETE') {
        const caller = await authenticate(req);
        if (!(await findBucket(admin, req, id))) throw errors.noSuchBucket();
        const { rows } = await run(admin, req, 'storage.bucket.delete', (tx) =>
          tx.query(`select 1 from storage.objects where bucket_id = $1 limit 1`, [id]),
        );
        if (rows.length > 0) throw errors.bucketNotEmpty();
        const deleted = await run(caller, req, 'storage.bucket.delete', (tx) =>
          tx.query(`delete from storage.buckets where id = $1 returning id`, [id]),
        );
        if (deleted.rows.length === 0) throw errors.noSuchBucket();
        sendJson(res, 200, { message: 'Successfully deleted' });
        return;
      }
    }

    // ---- objects: fixed routes first (as Storage's router does)
    if ((r = m(/^\/object\/list\/([^/]+)\/?$/)) && method === 'POST') {
      const caller = await authenticate(req);
      const body = (await readJson<Record<string, unknown>>(req)) ?? {};
      if (typeof body.prefix !== 'string') throw errors.invalidRequest("body must have required property 'prefix'");
      sendJson(res, 200, await search(caller, req, decodeName(r[1]), body as Parameters<typeof search>[3]));
      return;
    }
    if ((r = m(/^\/object\/(move|copy)\/?$/)) && method === 'POST') {
      const caller = await authenticate(req);
      const body = (await readJson<Record<string, unknown>>(req)) ?? {};
      for (const key of ['bucketId', 'sourceKey', 'destinationKey']) {
        if (typeof body[key] !== 'string') throw errors.invalidRequest(`body must have required property '${key}'`);
      }
      const bucketId = body.bucketId as string;
      const sourceKey = body.sourceKey as string;
      const destinationKey = body.destinationKey as string;
      const destinationBucket = typeof body.destinationBucket === 'string' && body.destinationBucket ? body.destinationBucket : bucketId;
      mustBeValidKey(destinationKey);
      files.path(destinationBucket, destinationKey, 'version');
      if (r[1] === 'move') {
        const newVersion = randomUUID();
        await testPermission(caller, req, 'storage.object.move', async (tx) => {
          const found = await tx.query(`select id from storage.objects where name = $1 and bucket_id = $2`, [sourceKey, bucketId]);
          if (found.rows.length === 0) throw errors.noSuchKey();
          const updated = await tx.query(
            `update storage.objects set name = $1, bucket_id = $2, version = $3, owner = $4, owner_id = $5
             where bucket_id = $6 and name = $7 returning id`,
            [destinationKey, destinationBucket, newVersion, isUuid(caller.owner) ? caller.owner : null, caller.owner ?? null, bucketId, sourceKey],
          );
          if (updated.rows.length === 0) throw errors.noSuchKey();
        });
        const source = await findObject(admin, req, bucketId, sourceKey);
        if (bucketId === destinationBucket && sourceKey === destinationKey) {
          sendJson(res, 200, { message: 'Successfully moved' });
          return;
        }
        await files.copy(
          { bucket: bucketId, name: sourceKey, version: source.version ?? '' },
          { bucket: destinationBucket, name: destinationKey, version: newVersion },
        );
        try {
          await run(admin, req, 'storage.object.move', (tx) =>
            tx.query(
              `update storage.objects set name = $1, bucket_id = $2, version = $3, owner = $4, owner_id = $5, updated_at = now(),
                 metadata = coalesce(metadata, '{}'::jsonb) || jsonb_build_object('lastModified', $6::text)
               where bucket_id = $7 and name = $8`,
              [destinationKey, destinationBucket, newVersion, isUuid(caller.owner) ? caller.owner : null, caller.owner ?? null,
                new Date().toISOString(), bucketId, sourceKey],
            ),
          );
        } catch (error) {
          await files.remove(destinationBucket, destinationKey, newVersion);
          throw error;
        }
        await files.remove(bucketId, sourceKey, source.version);
        sendJson(res, 200, { message: 'Successfully moved' });
        return;
      }
      // copy
      const source = await findObject(caller, req, bucketId, sourceKey);
      const copyMetadata = body.copyMetadata !== false;
      const headerMd = parseUserMetadata(req.headers['x-metadata'] as string | undefined);
      const userMetadata = copyMetadata ? source.user_metadata : headerMd;
      const upsert = req.headers['x-upsert'] === 'true';
      await canUpload(caller, req, {
        bucket: destinationBucket,
        name: destinationKey,
        owner: caller.owner,
        upsert,
        metadata: source.metadata ?? undefined,
        userMetadata: userMetadata ?? undefined,
      });
      const row = await storeObject(req, destinationBucket, destinationKey, { copyFrom: source }, caller.owner, userMetadata);
      sendJson(res, 200, { Id: row.id, Key: `${destinationBucket}/${destinationKey}`, ...row });
      return;
    }
    if ((r = m(/^\/object\/sign\/([^/]+)\/?$/)) && method === 'POST') {
      const caller = await authenticate(req);
      const bucketId = decodeName(r[1]);
      const body = (await readJson<{ expiresIn?: unknown; paths?: unknown }>(req)) ?? {};
      const expiresIn = checkExpiresIn(body.expiresIn);
      if (!Array.isArray(body.paths)) throw errors.invalidRequest("body must have required property 'paths'");
      const paths = body.paths.map(String);
      if (paths.length > MAX_OBJECTS_PER_REQUEST) throw errors.invalidRequest(`Bulk object requests are limited to ${MAX_OBJECTS_PER_REQUEST} objects per request.`);
      const { rows } = await run(caller, req, 'storage.object.sign', (tx) =>
        tx.query<{ name: string }>(`select name from storage.objects where bucket_id = $1 and name = any($2::text[])`, [bucketId, paths]),
      );
      const found = new Set(rows.map((row) => row.name));
      const out = await Promise.all(
        paths.map(async (path) => {
          if (!found.has(path)) return { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null };
          const urlToSign = `${bucketId}/${path}`;
          const token = await signToken({ url: urlToSign, scope: 'download' }, expiresIn);
          return { error: null, path, signedURL: `/object/sign/${urlToSign}?token=${token}` };
        }),
      );
      sendJson(res, 200, out);
      return;
    }
    if ((r = m(/^\/object\/sign\/([^/]+)\/(.+)$/))) {
      const bucketId = decodeName(r[1]);
      const name = decodeName(r[2]);
      if (method === 'POST') {
        const caller = await authenticate(req);
        const body = (await readJson<{ expiresIn?: unknown }>(req)) ?? {};
        const expiresIn = checkExpiresIn(body.expiresIn);
        await findObject(caller, req, bucketId, name);
        const urlToSign = `${bucketId}/${name}`;
        const token = await signToken({ url: urlToSign, scope: 'download' }, expiresIn);
        sendJson(res, 200, { signedURL: `/object/sign/${urlToSign}?token=${token}` });
        return;
      }
      if (method === 'GET' || method === 'HEAD') {
        const payload = await verifySigned(url.searchParams.get('token'), bucketId, name, 'download');
        const obj = await findObject(admin, req, bucketId, name);
        await sendObject(req, res, obj, {
          download: url.searchParams.get('download'),
          expires: new Date(Number(payload.exp) * 1000).toUTCString(),
          head: method === 'HEAD',
        });
        return;
      }
    }
    if ((r = m(/^\/object\/upload\/sign\/([^/]+)\/(.+)$/))) {
      const bucketId = decodeName(r[1]);
      const name = decodeName(r[2]);
      if (method === 'POST') {
        const caller = await authenticate(req);
        mustBeValidKey(name);
        const upsert = req.headers['x-upsert'] === 'true';
        const contentLength = req.headers['content-length'] ? Number(req.headers['content-length']) : undefined;
        await readCapped(req, 1024 * 1024, () => errors.entityTooLarge()).catch(() => {});
        await canUpload(caller, req, {
          bucket: bucketId,
          name,
          owner: caller.owner,
          upsert,
          metadata: { mimetype: req.headers['content-type'], contentLength },
          userMetadata: parseUserMetadata(req.headers['x-metadata'] as string | undefined),
        });
        const urlPath = `${bucketId}/${name}`;
        const token = await signToken({ owner: caller.owner, url: urlPath, upsert, scope: 'upload' }, UPLOAD_SIGNED_URL_EXPIRES_IN);
        sendJson(res, 200, { url: `/object/upload/sign/${urlPath}?token=${token}`, token });
        return;
      }
      if (method === 'PUT') {
        let payload: Record<string, unknown>;
        try {
          payload = await verifySigned(url.searchParams.get('token'), bucketId, name, 'upload');
        } catch (error) {
          await readCapped(req, 0, () => new Error()).catch(() => {});
          throw error;
        }
        const owner = typeof payload.owner === 'string' ? payload.owner : undefined;
        const result = await upload(req, admin, bucketId, name, { upsert: payload.upsert === true, owner, checkAs: admin });
        sendJson(res, 200, { Key: result.key });
        return;
      }
    }
    if ((r = m(/^\/object\/info\/(?:(public|authenticated)\/)?([^/]+)\/(.+)$/)) && method === 'GET') {
      const isPublic = r[1] === 'public';
      const caller = isPublic ? admin : await authenticate(req);
      const obj = await resolveForRead(req, caller, decodeName(r[2]), decodeName(r[3]), isPublic);
      const md = (obj.metadata ?? {}) as Record<string, unknown>;
      const headers: Record<string, string> = {};
      if (md.eTag) headers.etag = String(md.eTag);
      if (md.cacheControl) headers['cache-control'] = String(md.cacheControl);
      sendJson(res, 200, infoBody(obj), headers);
      return;
    }
    if ((r = m(/^\/object\/(public|authenticated)\/([^/]+)\/(.+)$/)) && (method === 'GET' || method === 'HEAD')) {
      const isPublic = r[1] === 'public';
      const caller = isPublic ? admin : await authenticate(req);
      const obj = await resolveForRead(req, caller, decodeName(r[2]), decodeName(r[3]), isPublic);
      await sendObject(req, res, obj, { download: url.searchParams.get('download'), head: method === 'HEAD' });
      return;
    }
    if ((r = m(/^\/object\/([^/]+)\/?$/)) && method === 'DELETE') {
      const caller = await authenticate(req);
      const bucketId = decodeName(r[1]);
      const body = (await readJson<{ prefixes?: unknown }>(req)) ?? {};
      if (!Array.isArray(body.prefixes)) throw errors.invalidRequest("body must have required property 'prefixes'");
      const prefixes = body.prefixes.map(String);
      if (prefixes.length > MAX_OBJECTS_PER_REQUEST) {
        throw errors.invalidRequest(`Bulk object requests are limited to ${MAX_OBJECTS_PER_REQUEST} objects per request.`);
      }
      if (prefixes.length === 0) throw errors.invalidRequest('body/prefixes must NOT have fewer than 1 items');
      const { rows } = await run(caller, req, 'storage.object.delete_many', (tx) =>
        tx.query<ObjectRow>(`delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${OBJECT_COLUMNS}`, [
          bucketId,
          prefixes,
        ]),
      );
      for (const row of rows) await files.remove(bucketId, row.name, row.version);
      sendJson(res, 200, rows);
      return;
    }
    if ((r = m(/^\/object\/([^/]+)\/(.+)$/))) {
      const bucketId = decodeName(r[1]);
      const name = decodeName(r[2]);
      if (method === 'POST' || method === 'PUT') {
        const caller = await authenticate(req);
        const upsert = method === 'PUT' || req.headers['x-upsert'] === 'true';
        const result = await upload(req, caller, bucketId, name, { upsert, owner: caller.owner, checkAs: caller });
        sendJson(res, 200, { Id: result.id, Key: result.key });
        return;
      }
      if (method === 'GET' || method === 'HEAD') {
        const caller = await authenticate(req, true);
        const obj = await resolveForRead(req, caller, bucketId, name, false);
        await sendObject(req, res, obj, { download: url.searchParams.get('download'), head: method === 'HEAD' });
        return;
      }
      if (method === 'DELETE') {
        const caller = await authenticate(req);
        const obj = await findObject(admin, req, bucketId, name);
        const { rows } = await run(caller, req, 'storage.object.delete', (tx) =>
          tx.query(`delete from storage.objects where name = $1 and bucket_id = $2 returning id`, [name, bucketId]),
        );
        if (rows.length === 0) throw errors.accessDenied('Access denied');
        await files.remove(bucketId, name, obj.version);
        sendJson(res, 200, { message: 'Successfully deleted' });
        return;
      }
    }
    sendJson(res, 404, {
      statusCode: '404',
      error: 'Not Found',
      message: `Route ${method}:${url.pathname.replace(/^\/storage\/v1/, '')} not found`,
      code: 'InvalidRequest',
    });
  }

  return {
    handle,
    async close() {
      if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
    },
  };
}

function isUuid(value: string | undefined): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);
}
