import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { createReadStream, type ReadStream } from 'node:fs';
import { dirname, isAbsolute, normalize, resolve, sep } from 'node:path';
import { errors } from './errors.ts';

// Storage's object key rule (S3-safe characters only); `-` last so it is literal.
const VALID_OBJECT_KEY = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]*$/;
const VALID_BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]*$/;
/** S3's key limit, and what one file name on the local disk may hold. */
const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;

export function isValidBucketName(name: string): boolean {
  return name.length > 0 && name.length < 101 && VALID_BUCKET_NAME.test(name);
}

/** Storage's InvalidKey check, plus the file backend's path rules (no escape from the root). */
export function mustBeValidKey(key: string | undefined): asserts key is string {
  if (!key || !VALID_OBJECT_KEY.test(key)) throw errors.invalidKey(key ?? '');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES || key.split('/').some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    throw errors.invalidKey(key, 'is too long');
  }
}

export function mustBeValidBucketName(name: string | undefined): asserts name is string {
  if (!name || !isValidBucketName(name)) throw errors.invalidBucketName();
}

/**
 * Files of one object version live at <root>/<bucket>/<name>/<version>, as in Storage's file
 * backend. Every path is resolved under the root and refused when it could leave it.
 */
export class FileStore {
  constructor(readonly root: string) {}

  path(bucket: string, name: string, version: string): string {
    const relative = `${bucket}/${name}/${version}`;
    if (relative.includes('\0')) throw errors.invalidKey(relative, 'contains null byte');
    if (isAbsolute(name) || isAbsolute(relative)) throw errors.invalidKey(name, 'must be a relative path');
    if (relative.split(/[\\/]+/).some((s) => s === '.' || s === '..')) {
      throw errors.invalidKey(name, 'contains dot path segment');
    }
    const root = normalize(resolve(this.root));
    const full = normalize(resolve(root, relative));
    if (!full.startsWith(root + sep)) throw errors.invalidKey(name, 'resolves outside storage directory');
    return full;
  }

  async write(bucket: string, name: string, version: string, data: Buffer): Promise<{ eTag: string; size: number }> {
    const file = this.path(bucket, name, version);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, file);
    return { eTag: `"${createHash('md5').update(data).digest('hex')}"`, size: data.length };
  }

  async copy(from: { bucket: string; name: string; version: string }, to: { bucket: string; name: string; version: string }) {
    const target = this.path(to.bucket, to.name, to.version);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(this.path(from.bucket, from.name, from.version), target);
  }

  async size(bucket: string, name: string, version: string): Promise<number | undefined> {
    try {
      return (await stat(this.path(bucket, name, version))).size;
    } catch {
      return undefined;
    }
  }

  stream(bucket: string, name: string, version: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.path(bucket, name, version), range);
  }

  read(bucket: string, name: string, version: string): Promise<Buffer> {
    return readFile(this.path(bucket, name, version));
  }

  /** Removes a version's file and any folders it leaves empty (never the bucket root). */
  async remove(bucket: string, name: string, version: string | null | undefined) {
    if (!version) return;
    let file: string;
    try {
      file = this.path(bucket, name, version);
    } catch {
      return;
    }
    await rm(file, { force: true });
    const stop = normalize(resolve(this.root, bucket));
    let dir = dirname(file);
    while (dir.startsWith(stop + sep)) {
      try {
        await rmdir(dir);
      } catch {
        break;
      }
      dir = dirname(dir);
    }
  }
}
