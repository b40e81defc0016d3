import { readJson, sendJson } from '../../http.ts';
import type { StorageCore } from '../core.ts';
import { StorageError, errors } from '../errors.ts';
import { mustBeValidBucketName } from '../files.ts';
import {
  MIME_RULE,
  bucketJson,
  bucketListColumns,
  decodeName,
  isUuid,
  parseBucketSize,
  type BucketRow,
  type RouteRequest,
} from '../shared.ts';

/** Storage's src/http/routes/bucket: list, create, get, update, empty and delete buckets. */
export function bucketRoutes(core: StorageCore) {
  const { files, globalLimit, admin, run, authenticate, findBucket } = core;

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

  async function listBuckets({ req, res, url }: RouteRequest) {
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
    const order =
      sortColumn && allowedSort.includes(sortColumn)
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
        `select ${bucketListColumns(String(req.headers['x-client-info'] ?? ''), req.headers['user-agent'] ?? '')} from storage.buckets ${conditions.length ? `where ${conditions.join(' and ')}` : ''}${order}${page}`,
        values,
      ),
    );
    sendJson(res, 200, rows.map(bucketJson));
  }

  async function createBucket({ req, res }: RouteRequest) {
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
      if (error instanceof StorageError && (error.body as { code: string }).code === 'ResourceAlreadyExists')
        throw errors.bucketAlreadyExists();
      throw error;
    }
    sendJson(res, 200, { name });
  }

  async function emptyBucket({ req, res, params }: RouteRequest) {
    const caller = await authenticate(req);
    const id = decodeName(params[0]);
    if (!(await findBucket(caller, req, id))) throw errors.noSuchBucket();
    const { rows } = await run(admin, req, 'storage.bucket.empty', (tx) =>
      tx.query<{ name: string; version: string | null }>(`delete from storage.objects where bucket_id = $1 returning name, version`, [id]),
    );
    for (const row of rows) await files.remove(id, row.name, row.version);
    // Storage queues the deletion and answers at once (routes/bucket/emptyBucket.ts); here it is done already
    sendJson(res, 200, { message: 'Empty bucket has been queued. Completion may take up to an hour.' });
  }

  async function getBucket({ req, res, params }: RouteRequest) {
    const id = decodeName(params[0]);
    const caller = await authenticate(req);
    const bucket = await findBucket(caller, req, id);
    if (!bucket) throw errors.noSuchBucket();
    sendJson(res, 200, bucketJson(bucket));
  }

  async function updateBucket({ req, res, params }: RouteRequest) {
    const id = decodeName(params[0]);
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
  }

  async function deleteBucket({ req, res, params }: RouteRequest) {
    const id = decodeName(params[0]);
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
  }

  return { listBuckets, createBucket, emptyBucket, getBucket, updateBucket, deleteBucket };
}
