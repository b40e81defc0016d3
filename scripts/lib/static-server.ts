import { createServer, type Server } from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { createGzip } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { isRoutePath } from './routes.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = /^(text\/|application\/(json|manifest)|image\/svg)/;

/**
 * Serves a built SPA: files from `root`, hashed assets cached for a year, everything else
 * revalidated; a path with a prerendered page gets its <path>/index.html, any other page path
 * index.html so the client router renders it: with 200 for a path of one of the app's routes
 * (routes.json, written by the build), with 404 for any other (the app shows its not-found page).
 */
export async function serveStatic(
  root: string,
  options: { host?: string; port?: number } = {},
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const base = resolve(root);
  const routesFile = join(base, 'routes.json');
  // A build without routes.json (older than this server) gets the shell with 200 everywhere.
  const routes = existsSync(routesFile) ? (JSON.parse(readFileSync(routesFile, 'utf8')) as string[]) : null;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end('Bad request');
      return;
    }
    const candidate = normalize(join(base, pathname));
    const inside = candidate === base || candidate.startsWith(base + sep);
    const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
    let file = inside && isFile(candidate) ? candidate : undefined;
    let status = 200;
    // A prerendered page (scripts/lib/prerender.ts): /de/start -> de/start/index.html. The root
    // folder's index.html is the app shell, served below for every other page path.
    if (!file && inside && candidate !== base && isFile(join(candidate, 'index.html'))) file = join(candidate, 'index.html');
    if (!file) {
      // Asset-looking paths that do not exist are real 404s; page paths get the app shell.
      if (extname(pathname) && !pathname.endsWith('.html')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      file = join(base, 'index.html');
      if (routes && !isRoutePath(pathname, routes)) status = 404;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const immutable = file.includes(`${sep}assets${sep}`);
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    };
    if (COMPRESSIBLE.test(type)) headers.vary = 'accept-encoding';
    const gzip = COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) headers['content-encoding'] = 'gzip';
    res.writeHead(status, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file);
    (gzip ? stream.pipe(createGzip()) : stream).pipe(res);
  });
  await new Promise<void>((r, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => r());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
