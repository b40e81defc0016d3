import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import type { StorageCore } from './core.ts';
import { mustBeValidKey } from './files.ts';
import type { ObjectStore } from './objects.ts';
import { parseConfigSize } from './shared.ts';

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

/** `[storage.buckets.<id>]` of config.toml, upserted at start like `supabase seed buckets`. */
export function seedConfigBuckets(core: StorageCore, objects: ObjectStore): Promise<void> {
  const { ctx, admin, run } = core;
  const { storeObject } = objects;

  async function syncConfigBuckets() {
    const configured = Object.entries(ctx.config.storage.buckets);
    if (configured.length === 0) return;
    await run(admin, undefined, 'storage.bucket.seed', async (tx) => {
      for (const [name, b] of configured) {
        const limit =
          typeof b.file_size_limit === 'string'
            ? parseConfigSize(b.file_size_limit)
            : typeof b.file_size_limit === 'number'
              ? b.file_size_limit
              : null;
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
          tx.query<{ size: string | null }>(`select metadata->>'size' as size from storage.objects where bucket_id = $1 and name = $2`, [
            bucket,
            name,
          ]),
        );
        if (rows[0] && Number(rows[0].size) === data.length) continue;
        const mimetype = MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
        await storeObject(undefined, bucket, name, { data, mimetype, cacheControl: 'max-age=3600' }, undefined, undefined);
      } catch (error) {
        ctx.log.warn(`storage: could not upload ${full} to ${bucket}: ${(error as Error).message}`);
      }
    }
  }

  return syncConfigBuckets();
}
