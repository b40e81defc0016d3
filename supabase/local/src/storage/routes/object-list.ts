import type { IncomingMessage } from 'node:http';
import { readJson, sendJson } from '../../http.ts';
import type { StorageCore } from '../core.ts';
import { errors } from '../errors.ts';
import { OBJECT_COLUMNS, decodeName, type Caller, type ListEntry, type ObjectRow, type RouteRequest } from '../shared.ts';

/** Storage's listObjects (POST /object/list/:bucket): one folder level under a prefix. */
export function objectListRoutes(core: StorageCore) {
  const { run, authenticate } = core;

  async function search(
    caller: Caller,
    req: IncomingMessage,
    bucketId: string,
    body: { prefix?: string; limit?: number; offset?: number; search?: string; sortBy?: { column?: string; order?: string } },
  ) {
    let prefix = body.prefix ?? '';
    if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
    const searchText = body.search ?? '';
    const limit = Math.min(Math.max(Number(body.limit ?? 100) || 100, 1), 1500);
    const offset = Math.max(Number(body.offset ?? 0) || 0, 0);
    const column = ['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(String(body.sortBy?.column ?? 'name').toLowerCase())
      ? String(body.sortBy?.column ?? 'name').toLowerCase()
      : 'name';
    const asc = String(body.sortBy?.order ?? 'asc').toLowerCase() === 'asc';
    const full = prefix + searchText;
    const escaped = full.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    const { rows } = await run(caller, req, 'storage.object.list', (tx) =>
      tx.query<ObjectRow>(`select ${OBJECT_COLUMNS} from storage.objects where bucket_id = $1 and lower(name) like $2 || '%'`, [
        bucketId,
        escaped,
      ]),
    );
    const lower = (s: string) => s.toLowerCase();
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const folders = new Map<string, string>();
    const fileRows: ObjectRow[] = [];
    for (const row of rows) {
      const rest = row.name.slice(full.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) {
        const folder = row.name.slice(prefix.length, full.length + slash);
        if (!folders.has(lower(folder))) folders.set(lower(folder), folder);
      } else fileRows.push(row);
    }
    type Entry = ListEntry;
    const folderEntries: Entry[] = [...folders.values()].map((name) => ({
      name,
      id: null,
      updated_at: null,
      created_at: null,
      last_accessed_at: null,
      metadata: null,
    }));
    const fileEntries: Entry[] = fileRows.map((r) => ({
      name: r.name.slice(prefix.length),
      id: r.id,
      updated_at: r.updated_at,
      created_at: r.created_at,
      last_accessed_at: r.last_accessed_at,
      metadata: r.metadata,
    }));
    let all: Entry[];
    if (column === 'name') {
      all = [...folderEntries, ...fileEntries].sort((a, b) => cmp(lower(a.name), lower(b.name)) * (asc ? 1 : -1));
    } else {
      const key = column as 'updated_at' | 'created_at' | 'last_accessed_at';
      folderEntries.sort((a, b) => cmp(a.name, b.name) * (asc ? 1 : -1));
      fileEntries.sort((a, b) => cmp(String(a[key] ?? ''), String(b[key] ?? '')) * (asc ? 1 : -1));
      all = [...folderEntries, ...fileEntries];
    }
    return all.slice(offset, offset + limit);
  }

  async function listObjects({ req, res, params }: RouteRequest) {
    const caller = await authenticate(req);
    const body = (await readJson<Record<string, unknown>>(req)) ?? {};
    if (typeof body.prefix !== 'string') throw errors.invalidRequest("body must have required property 'prefix'");
    sendJson(res, 200, await search(caller, req, decodeName(params[0]), body as Parameters<typeof search>[3]));
  }

  return { listObjects };
}
