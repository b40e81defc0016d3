import type { IncomingMessage, ServerResponse } from 'node:http';
import { rmSync } from 'node:fs';
import type { Service, StackContext } from '../context.ts';
import { sendJson } from '../http.ts';
import { seedConfigBuckets } from './config-buckets.ts';
import { createStorageCore } from './core.ts';
import { createObjectStore } from './objects.ts';
import { bucketRoutes } from './routes/bucket.ts';
import { objectRoutes } from './routes/object.ts';
import { objectListRoutes } from './routes/object-list.ts';
import { objectListV2Routes } from './routes/object-list-v2.ts';
import { objectSignRoutes } from './routes/object-sign.ts';
import { renderRoutes } from './routes/render.ts';
import type { Handler } from './shared.ts';

/**
 * The local Storage API (/storage/v1). The endpoints live in routes/, one file per group as
 * Storage lays out src/http/routes (bucket, object, ...); this router lists them by path, in
 * the order Storage's router tries them (fixed object routes before /object/:bucket/*).
 */
export function createStorageService(ctx: StackContext): Service {
  const core = createStorageCore(ctx);
  const objects = createObjectStore(core);
  const bucket = bucketRoutes(core);
  const object = objectRoutes(core, objects);
  const list = objectListRoutes(core);
  const listV2 = objectListV2Routes(core);
  const sign = objectSignRoutes(core, objects);
  const image = renderRoutes(core);

  const routes: [methods: string[], path: RegExp, handler: Handler][] = [
    // ---- buckets
    [['GET'], /^\/bucket\/?$/, bucket.listBuckets],
    [['POST'], /^\/bucket\/?$/, bucket.createBucket],
    [['POST'], /^\/bucket\/([^/]+)\/empty\/?$/, bucket.emptyBucket],
    [['GET'], /^\/bucket\/([^/]+)\/?$/, bucket.getBucket],
    [['PUT'], /^\/bucket\/([^/]+)\/?$/, bucket.updateBucket],
    [['DELETE'], /^\/bucket\/([^/]+)\/?$/, bucket.deleteBucket],
    // ---- objects: fixed routes first (as Storage's router does)
    [['POST'], /^\/object\/list\/([^/]+)\/?$/, list.listObjects],
    [['POST'], /^\/object\/list-v2\/([^/]+)\/?$/, listV2.listObjectsV2],
    [['POST'], /^\/object\/(move|copy)\/?$/, object.moveOrCopyObject],
    [['POST'], /^\/object\/sign\/([^/]+)\/?$/, sign.signUrls],
    [['POST'], /^\/object\/sign\/([^/]+)\/(.+)$/, sign.signUrl],
    [['GET', 'HEAD'], /^\/object\/sign\/([^/]+)\/(.+)$/, sign.getSignedObject],
    [['POST'], /^\/object\/upload\/sign\/([^/]+)\/(.+)$/, sign.signUploadUrl],
    [['PUT'], /^\/object\/upload\/sign\/([^/]+)\/(.+)$/, sign.uploadSignedObject],
    [['GET'], /^\/object\/info\/(?:(public|authenticated)\/)?([^/]+)\/(.+)$/, object.getObjectInfo],
    [['GET', 'HEAD'], /^\/object\/(public|authenticated)\/([^/]+)\/(.+)$/, object.getPublicOrAuthenticatedObject],
    [['DELETE'], /^\/object\/([^/]+)\/?$/, object.deleteObjects],
    [['POST', 'PUT'], /^\/object\/([^/]+)\/(.+)$/, object.createObject],
    [['GET', 'HEAD'], /^\/object\/([^/]+)\/(.+)$/, object.getObject],
    [['DELETE'], /^\/object\/([^/]+)\/(.+)$/, object.deleteObject],
    // ---- image transformations
    [['GET', 'HEAD'], /^\/render\/image\/authenticated\/([^/]+)\/(.+)$/, image.renderAuthenticatedImage],
    [['GET', 'HEAD'], /^\/render\/image\/sign\/([^/]+)\/(.+)$/, image.renderSignedImage],
    [['GET', 'HEAD'], /^\/render\/image\/public\/([^/]+)\/(.+)$/, image.renderPublicImage],
  ];

  const ready = seedConfigBuckets(core, objects).catch((error) => {
    ctx.log.error(`storage: could not create the buckets from config.toml: ${(error as Error).message}`);
  });

  async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    await ready;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    for (const [methods, pattern, handler] of routes) {
      const match = methods.includes(method) ? pattern.exec(path) : null;
      if (match) return handler({ req, res, params: match.slice(1), url, method });
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
      if (core.tempRoot) rmSync(core.tempRoot, { recursive: true, force: true });
    },
  };
}
