import { randomUUID } from 'node:crypto';
import { readJson, sendJson } from '../../http.ts';
import type { StorageCore } from '../core.ts';
import { errors } from '../errors.ts';
import { mustBeValidKey } from '../files.ts';
import type { ObjectStore } from '../objects.ts';
import {
  MAX_OBJECTS_PER_REQUEST,
  OBJECT_COLUMNS,
  decodeName,
  isUuid,
  parseUserMetadata,
  type ObjectRow,
  type RouteRequest,
} from '../shared.ts';

/** Storage's src/http/routes/object: upload, download, info, move, copy and delete objects. */
export function objectRoutes(core: StorageCore, objects: ObjectStore) {
  const { files, admin, run, testPermission, authenticate, findObject } = core;
  const { canUpload, storeObject, upload, sendObject, infoBody, resolveForRead } = objects;

  async function moveOrCopyObject({ req, res, params }: RouteRequest) {
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
    if (params[0] === 'move') {
      const newVersion = randomUUID();
      await testPermission(caller, req, 'storage.object.move', async (tx) => {
        const found = await tx.query(`select id from storage.objects where name = $1 and bucket_id = $2`, [sourceKey, bucketId]);
        if (found.rows.length === 0) throw errors.noSuchKey();
        const updated = await tx.query(
          `update storage.objects set name = $1, bucket_id = $2, version = $3, owner = $4, owner_id = $5
           where bucket_id = $6 and name = $7 returning id`,
          [
            destinationKey,
            destinationBucket,
            newVersion,
            isUuid(caller.owner) ? caller.owner : null,
            caller.owner ?? null,
            bucketId,
            sourceKey,
          ],
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
            [
              destinationKey,
              destinationBucket,
              newVersion,
              isUuid(caller.owner) ? caller.owner : null,
              caller.owner ?? null,
              new Date().toISOString(),
              bucketId,
              sourceKey,
            ],
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
  }

  async function getObjectInfo({ req, res, params }: RouteRequest) {
    const isPublic = params[0] === 'public';
    const caller = isPublic ? admin : await authenticate(req);
    const obj = await resolveForRead(req, caller, decodeName(params[1]), decodeName(params[2]), isPublic);
    const md = (obj.metadata ?? {}) as Record<string, unknown>;
    const headers: Record<string, string> = {};
    if (md.eTag) headers.etag = String(md.eTag);
    if (md.cacheControl) headers['cache-control'] = String(md.cacheControl);
    sendJson(res, 200, infoBody(obj), headers);
  }

  async function getPublicOrAuthenticatedObject({ req, res, params, url, method }: RouteRequest) {
    const isPublic = params[0] === 'public';
    const caller = isPublic ? admin : await authenticate(req);
    const obj = await resolveForRead(req, caller, decodeName(params[1]), decodeName(params[2]), isPublic);
    await sendObject(req, res, obj, { download: url.searchParams.get('download'), head: method === 'HEAD' });
  }

  async function deleteObjects({ req, res, params }: RouteRequest) {
    const caller = await authenticate(req);
    const bucketId = decodeName(params[0]);
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
  }

  async function createObject({ req, res, params, method }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const caller = await authenticate(req);
    const upsert = method === 'PUT' || req.headers['x-upsert'] === 'true';
    const result = await upload(req, caller, bucketId, name, { upsert, owner: caller.owner, checkAs: caller });
    sendJson(res, 200, { Id: result.id, Key: result.key });
  }

  async function getObject({ req, res, params, url, method }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const caller = await authenticate(req, true);
    const obj = await resolveForRead(req, caller, bucketId, name, false);
    await sendObject(req, res, obj, { download: url.searchParams.get('download'), head: method === 'HEAD' });
  }

  async function deleteObject({ req, res, params }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const caller = await authenticate(req);
    const obj = await findObject(admin, req, bucketId, name);
    const { rows } = await run(caller, req, 'storage.object.delete', (tx) =>
      tx.query(`delete from storage.objects where name = $1 and bucket_id = $2 returning id`, [name, bucketId]),
    );
    if (rows.length === 0) throw errors.accessDenied('Access denied');
    await files.remove(bucketId, name, obj.version);
    sendJson(res, 200, { message: 'Successfully deleted' });
  }

  return { moveOrCopyObject, getObjectInfo, getPublicOrAuthenticatedObject, deleteObjects, createObject, getObject, deleteObject };
}
