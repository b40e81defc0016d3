import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { sendJson } from '../http.ts';
import type { StorageCore } from './core.ts';
import { StorageError, errors } from './errors.ts';
import { mustBeValidKey } from './files.ts';
import {
  EMPTY_FOLDER,
  OBJECT_COLUMNS,
  isUuid,
  parseUserMetadata,
  readCapped,
  toNumber,
  validateMimeType,
  type BucketRow,
  type Caller,
  type ObjectRow,
} from './shared.ts';

export type ObjectStore = ReturnType<typeof createObjectStore>;

/** Storage's object layer: uploads (limits, RLS test, file, row) and downloads (headers, ranges). */
export function createObjectStore(core: StorageCore) {
  const { files, globalLimit, admin, run, testPermission, findBucket, findObject } = core;

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
        form = await new Request('http://storage.local/', {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: new Uint8Array(body),
        }).formData();
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
    row: {
      bucket: string;
      name: string;
      owner?: string;
      upsert: boolean;
      metadata?: Record<string, unknown>;
      userMetadata?: Record<string, unknown>;
    },
  ) {
    const values = [
      row.bucket,
      row.name,
      isUuid(row.owner) ? row.owner : null,
      row.owner ?? null,
      row.metadata ?? null,
      row.userMetadata ?? null,
    ];
    try {
      await testPermission(caller, req, 'storage.object.upload', (tx) =>
        tx.query(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
           values ($1, $2, $3, $4, $5, $6, '1')
           ${
             row.upsert
               ? `on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
             version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id returning id`
               : ''
           }`,
          values,
        ),
      );
    } catch (error) {
      if (error instanceof StorageError && (error.body as { code: string }).code === 'ResourceAlreadyExists')
        throw errors.keyAlreadyExists();
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
    // an upload without metadata stores {} (Storage's uploader.ts: `userMetadata: { ...request.userMetadata }`)
    const row = await storeObject(req, bucketId, name, file, opts.owner, { ...file.userMetadata });
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
      sendJson(
        res,
        400,
        { error: 'Not found', message: 'The resource was not found', statusCode: '404', code: 'NoSuchKey' },
        { 'cache-control': 'no-store' },
      );
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

  return { readUpload, canUpload, storeObject, upload, sendObject, infoBody, resolveForRead };
}
