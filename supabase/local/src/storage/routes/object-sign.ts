import { readJson, sendJson } from '../../http.ts';
import type { StorageCore } from '../core.ts';
import { errors } from '../errors.ts';
import { mustBeValidKey } from '../files.ts';
import { parseTransformOptions, transformSegments } from '../image.ts';
import type { ObjectStore } from '../objects.ts';
import {
  MAX_OBJECTS_PER_REQUEST,
  UPLOAD_SIGNED_URL_EXPIRES_IN,
  decodeName,
  parseUserMetadata,
  readCapped,
  type RouteRequest,
} from '../shared.ts';
import { optionalObject } from '../validate.ts';

/** Storage's signed URLs: create them (download and upload) and serve them. */
export function objectSignRoutes(core: StorageCore, objects: ObjectStore) {
  const { admin, run, authenticate, findObject, signToken, checkExpiresIn, verifySigned } = core;
  const { canUpload, upload, sendObject } = objects;

  async function signUrls({ req, res, params }: RouteRequest) {
    const caller = await authenticate(req);
    const bucketId = decodeName(params[0]);
    const body = (await readJson<{ expiresIn?: unknown; paths?: unknown }>(req)) ?? {};
    const expiresIn = checkExpiresIn(body.expiresIn);
    if (!Array.isArray(body.paths)) throw errors.invalidRequest("body must have required property 'paths'");
    const paths = body.paths.map(String);
    if (paths.length > MAX_OBJECTS_PER_REQUEST)
      throw errors.invalidRequest(`Bulk object requests are limited to ${MAX_OBJECTS_PER_REQUEST} objects per request.`);
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
  }

  async function signUrl({ req, res, params }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const caller = await authenticate(req);
    const body = (await readJson<{ expiresIn?: unknown; transform?: unknown }>(req)) ?? {};
    const expiresIn = checkExpiresIn(body.expiresIn);
    const transform = optionalObject(body.transform, 'body/transform');
    const options = transform ? parseTransformOptions(transform, 'body/transform') : {};
    await findObject(caller, req, bucketId, name);
    const urlToSign = `${bucketId}/${name}`;
    // As Storage: the transformations (and the format) go into the token; with any, the URL
    // points at render/image/sign.
    const transformations = transformSegments(options, true).join(',');
    const claims = { ...(transformations ? { transformations } : {}), ...(options.format ? { format: options.format } : {}) };
    const token = await signToken({ ...claims, url: urlToSign, scope: 'download' }, expiresIn);
    sendJson(res, 200, { signedURL: `/${transformations ? 'render/image' : 'object'}/sign/${urlToSign}?token=${token}` });
  }

  async function getSignedObject({ req, res, params, url, method }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const payload = await verifySigned(url.searchParams.get('token'), bucketId, name, 'download');
    const obj = await findObject(admin, req, bucketId, name);
    await sendObject(req, res, obj, {
      download: url.searchParams.get('download'),
      expires: new Date(Number(payload.exp) * 1000).toUTCString(),
      head: method === 'HEAD',
    });
  }

  async function signUploadUrl({ req, res, params }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
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
  }

  async function uploadSignedObject({ req, res, params, url }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
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
  }

  return { signUrls, signUrl, getSignedObject, signUploadUrl, uploadSignedObject };
}
