import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../../http.ts';
import type { StorageCore } from '../core.ts';
import { errors } from '../errors.ts';
import { parseTransformOptions, parseTransformString, renderImage, transformSegments, type TransformOptions } from '../image.ts';
import { decodeName, type ObjectRow, type RouteRequest } from '../shared.ts';

/**
 * Storage's src/http/routes/render: transformed images of public objects (read as the service
 * role when the bucket is public), of objects the caller may select (RLS) and of signed URLs
 * whose token carries the transformations.
 */
export function renderRoutes(core: StorageCore) {
  const { files, admin, authenticate, findBucket, findObject, verifySigned } = core;

  async function render(
    req: IncomingMessage,
    res: ServerResponse,
    obj: ObjectRow,
    options: TransformOptions,
    extra: { download?: string | null; expires?: string },
  ) {
    const md = (obj.metadata ?? {}) as Record<string, unknown>;
    let source: Buffer;
    try {
      source = await files.read(obj.bucket_id, obj.name, obj.version ?? '');
    } catch {
      sendJson(
        res,
        400,
        { error: 'Not found', message: 'The resource was not found', statusCode: '404', code: 'NoSuchKey' },
        { 'cache-control': 'no-store' },
      );
      return;
    }
    const { data, contentType } = await renderImage(source, options, req.headers.accept);
    const headers: Record<string, string> = {
      'accept-ranges': 'bytes',
      'content-type': contentType,
      'x-robots-tag': 'none',
      'content-length': String(data.length),
    };
    if (md.eTag) headers.etag = String(md.eTag);
    const lastModified = new Date(String(md.lastModified ?? obj.updated_at ?? ''));
    if (!Number.isNaN(lastModified.getTime())) headers['last-modified'] = lastModified.toUTCString();
    if (extra.expires) headers.expires = extra.expires;
    else if (md.cacheControl) headers['cache-control'] = String(md.cacheControl);
    const segments = transformSegments(options);
    if (segments.length > 0) headers['x-transformations'] = segments.join(',');
    if (extra.download !== undefined && extra.download !== null) {
      headers['content-disposition'] =
        extra.download === ''
          ? 'attachment;'
          : `attachment; filename=${encodeURIComponent(extra.download)}; filename*=UTF-8''${encodeURIComponent(extra.download)}`;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : data);
  }

  const queryOptions = (url: URL) => parseTransformOptions(Object.fromEntries(url.searchParams), 'querystring');

  async function renderPublicImage({ req, res, params, url }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const options = queryOptions(url);
    if (!(await findBucket(admin, req, bucketId, { isPublic: true }))) throw errors.noSuchBucket();
    const obj = await findObject(admin, req, bucketId, name);
    await render(req, res, obj, options, { download: url.searchParams.get('download') });
  }

  async function renderAuthenticatedImage({ req, res, params, url }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const caller = await authenticate(req);
    const options = queryOptions(url);
    const obj = await findObject(caller, req, bucketId, name);
    await render(req, res, obj, options, { download: url.searchParams.get('download') });
  }

  async function renderSignedImage({ req, res, params, url }: RouteRequest) {
    const bucketId = decodeName(params[0]);
    const name = decodeName(params[1]);
    const payload = await verifySigned(url.searchParams.get('token'), bucketId, name, 'download');
    const obj = await findObject(admin, req, bucketId, name);
    // Storage reads only the `transformations` claim here (a signed `format: origin` is not in it).
    const options = parseTransformString(typeof payload.transformations === 'string' ? payload.transformations : '');
    await render(req, res, obj, options, {
      download: url.searchParams.get('download'),
      expires: new Date(Number(payload.exp) * 1000).toUTCString(),
    });
  }

  return { renderPublicImage, renderAuthenticatedImage, renderSignedImage };
}
