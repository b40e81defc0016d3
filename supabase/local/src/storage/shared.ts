import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from './errors.ts';

/**
 * Types, constants and small helpers shared by the storage service's modules (the service
 * itself is in index.ts, the endpoints in routes/*, as Storage lays out src/http/routes).
 */

/** Who is calling, from the bearer token, as Storage's JWT plugin decides it. */
export interface Caller {
  role: string;
  claims: Record<string, unknown>;
  jwt: string;
  owner?: string;
  isAuthenticated: boolean;
}

export interface ObjectRow {
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

export interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: string | number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
  /** Only in a list (bucketListColumns). */
  type?: string;
}

/** One row of a listing (storage.search / search_v2): a folder has null id and timestamps. */
export interface ListEntry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

/** Timestamps as Storage's JSON shows them (ISO 8601, UTC, milliseconds). */
export const iso = (column: string, alias = column) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${alias}`;
export const OBJECT_COLUMNS = `id, name, bucket_id, owner, owner_id, version, metadata, user_metadata,
  ${iso('created_at')}, ${iso('updated_at')}, ${iso('last_accessed_at')}`;
/** A bucket as Storage's getBucket selects it (no `type`: routes/bucket/getBucket.ts). */
export const BUCKET_COLUMNS = `id, name, owner, public, ${iso('created_at')}, ${iso('updated_at')},
  file_size_limit, allowed_mime_types`;
/**
 * A bucket in Storage's list (routes/bucket/getAllBuckets.ts): `type` (always STANDARD here, no
 * analytics buckets) except for supabase-py before 2.18.0 and storage3 before 0.12.1, which
 * fail on it.
 */
export function bucketListColumns(clientInfo: string, userAgent: string): string {
  const columns = `id, name, public, owner, ${iso('created_at')}, ${iso('updated_at')}, file_size_limit, allowed_mime_types`;
  const before = (text: string, pattern: RegExp, min: number[]) => {
    const m = pattern.exec(text);
    if (!m) return false;
    const v = m.slice(1).map(Number);
    return v[0] !== min[0] ? v[0] < min[0] : v[1] !== min[1] ? v[1] < min[1] : v[2] < min[2];
  };
  const omitType =
    before(clientInfo, /supabase-py\/(\d+)\.(\d+)\.(\d+)/i, [2, 18, 0]) ||
    before(userAgent, /supabase-py\/storage3 v(\d+)\.(\d+)\.(\d+)/i, [0, 12, 1]);
  return omitType ? columns : `${columns}, 'STANDARD'::text as type`;
}

/** Storage's default lifetime of a signed upload URL (UPLOAD_SIGNED_URL_EXPIRATION_TIME). */
export const UPLOAD_SIGNED_URL_EXPIRES_IN = 7200;
export const MAX_OBJECTS_PER_REQUEST = 1000;
export const EMPTY_FOLDER = '.emptyFolderPlaceholder';

/** The CLI's size notation in config.toml ("50MiB", "5MB"): binary units, like go-units. */
export function parseConfigSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$/i.exec(text);
  if (!m) throw new Error(`invalid size "${text}" in config.toml`);
  const power = { '': 0, k: 1, m: 2, g: 3, t: 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * 1024 ** power);
}

/** Storage's parser for a bucket's file_size_limit given as text ("20MB", decimal units). */
export function parseBucketSize(value: string): number {
  const m = /(^[0-9]+(?:\.[0-9]+)?)(gb|mb|kb|b)$/i.exec(value);
  if (!m) throw errors.invalidFileSizeLimit();
  const n = +parseFloat(m[1]).toPrecision(3);
  return n * { GB: 1e9, MB: 1e6, KB: 1000, B: 1 }[m[2].toUpperCase() as 'GB' | 'MB' | 'KB' | 'B'];
}

export const MIME_RULE = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

export function validateMimeType(mime: string, allowed: string[]) {
  const [type, ext] = mime.split('/');
  if (ext === undefined) throw errors.invalidMimeType(mime);
  for (const a of allowed) {
    const [aType, aExt] = a.split('/');
    if (aType === type && (aExt === '*' || aExt === ext)) return;
  }
  throw errors.invalidMimeType(mime);
}

export function parseUserMetadata(header: string | undefined): Record<string, unknown> | undefined {
  if (!header) return undefined;
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Reads the request body; beyond `limit` bytes the rest is drained and `onOverflow` thrown. */
export async function readCapped(req: IncomingMessage, limit: number, onOverflow: () => Error): Promise<Buffer> {
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

export function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.invalidKey(raw);
  }
}

export const toNumber = (v: string | number | null) => (v === null || v === undefined ? null : Number(v));

export function bucketJson(b: BucketRow) {
  return { ...b, file_size_limit: toNumber(b.file_size_limit) };
}

export class Rollback extends Error {}

export function isUuid(value: string | undefined): value is string {
  return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);
}

/** One endpoint: the router in index.ts tries them in order, as Storage's router does. */
export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path's captured groups (still URL-encoded). */
  params: string[];
  url: URL;
  method: string;
}
export type Handler = (rq: RouteRequest) => Promise<void>;
