import { readJson, sendJson } from '../../http.ts';
import type { StorageCore } from '../core.ts';
import { errors } from '../errors.ts';
import { decodeName, iso, type ListEntry, type RouteRequest } from '../shared.ts';
import { optionalBoolean, optionalEnum, optionalInteger, optionalObject, optionalString } from '../validate.ts';

type SortColumn = 'name' | 'created_at' | 'updated_at';

interface Row extends ListEntry {
  key?: string;
}

/** Storage's continuation token: base64 of `l:<startAfter>\no:<order>\nc:<column>\na:<after>`. */
interface Cursor {
  startAfter: string;
  sortOrder?: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}
const CURSOR_PARTS: [string, keyof Cursor][] = [
  ['l', 'startAfter'],
  ['o', 'sortOrder'],
  ['c', 'sortColumn'],
  ['a', 'sortColumnAfter'],
];

function encodeCursor(cursor: Cursor): string {
  const text = CURSOR_PARTS.filter(([, field]) => cursor[field])
    .map(([k, field]) => `${k}:${cursor[field]}`)
    .join('\n');
  return Buffer.from(text).toString('base64');
}

function decodeCursor(token: string): Cursor {
  const cursor: Cursor = { startAfter: '', sortOrder: 'asc' };
  for (const part of Buffer.from(token, 'base64').toString().split('\n')) {
    const m = /^(\S):(.*)/.exec(part);
    const field = m && CURSOR_PARTS.find(([k]) => k === m[1])?.[1];
    if (!m || !field) throw errors.invalidParameter('continuation token');
    cursor[field] = m[2];
  }
  return cursor;
}

/** Postgres' COLLATE "C": byte order of the UTF-8 text. */
const byteCompare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** `storage.get_common_prefix`: the first delimiter-terminated segment after the prefix. */
function commonPrefix(name: string, prefix: string): string | undefined {
  const slash = name.indexOf('/', prefix.length);
  return slash >= 0 ? name.slice(0, slash + 1) : undefined;
}

/**
 * Storage's listObjectsV2 (POST /object/list-v2/:bucket): keyset pages over the objects the
 * caller may select (RLS), flat or one folder level (`with_delimiter`), by name or by a
 * timestamp, with Storage's cursor. The rows are the ones storage.search_v2 and
 * list_objects_with_delimiter return, computed here over the caller's rows.
 */
export function objectListV2Routes(core: StorageCore) {
  const { run, authenticate } = core;

  async function listObjectsV2({ req, res, params }: RouteRequest) {
    const caller = await authenticate(req);
    const bucketId = decodeName(params[0]);
    const body = (await readJson<Record<string, unknown>>(req)) ?? {};
    const prefixOption = optionalString(body.prefix, 'body/prefix');
    const limitOption = optionalInteger(body.limit, 'body/limit', { min: 1 });
    const cursorOption = optionalString(body.cursor, 'body/cursor');
    const withDelimiter = optionalBoolean(body.with_delimiter, 'body/with_delimiter');
    const sortBy = optionalObject(body.sortBy, 'body/sortBy');
    if (sortBy && sortBy.column === undefined) throw errors.invalidRequest("body/sortBy must have required property 'column'");
    const sortColumnOption = optionalEnum(sortBy?.column, 'body/sortBy/column', ['name', 'updated_at', 'created_at'] as const);
    const sortOrderOption = optionalEnum(sortBy?.order, 'body/sortBy/order', ['asc', 'desc'] as const);

    const limit = Math.min(limitOption || 1000, 1000);
    const prefix = prefixOption || '';
    const cursor = cursorOption ? decodeCursor(cursorOption) : undefined;
    const order = cursor?.sortOrder || sortOrderOption;
    const column = (cursor?.sortColumn || sortColumnOption) as SortColumn | undefined;
    const asc = (order ?? 'asc').toLowerCase() !== 'desc';
    const after = cursor?.sortColumnAfter;
    const start = cursor?.startAfter ?? '';

    const { rows } = await run(caller, req, 'storage.object.list', (tx) =>
      tx.query<Row>(
        `select name, id, metadata, ${iso('updated_at')}, ${iso('created_at')}, ${iso('last_accessed_at')}
         from storage.objects where bucket_id = $1 and left(name, length($2)) = $2`,
        [bucketId, prefix],
      ),
    );

    // Rows of a page in order; `limit + 1` of them tell whether there is a next page.
    let result: Row[];
    const timeColumn = column === 'created_at' || column === 'updated_at' ? column : undefined;
    /** Keyset order by (timestamp, name), nulls as the epoch as in Storage's SQL. */
    const byTime = (col: 'created_at' | 'updated_at') => (a: Row, b: Row) =>
      ((a[col] ?? '') < (b[col] ?? '') ? -1 : (a[col] ?? '') > (b[col] ?? '') ? 1 : byteCompare(a.name, b.name)) * (asc ? 1 : -1);
    const afterKey = (col: 'created_at' | 'updated_at', row: Row) => {
      const cmp = byTime(col)(row, { ...row, name: start, [col]: after ? new Date(after).toISOString() : '' });
      return cmp > 0;
    };
    if (!withDelimiter) {
      result = [...rows];
      if (cursor) {
        result = result.filter((row) =>
          timeColumn && after ? afterKey(timeColumn, row) : byteCompare(row.name, start) * (asc ? 1 : -1) > 0,
        );
      }
      result.sort(timeColumn ? byTime(timeColumn) : (a, b) => byteCompare(a.name, b.name) * (asc ? 1 : -1));
      result = result.slice(0, limit + 1);
    } else {
      const levels = prefix ? prefix.split('/').length : 1;
      const keyOf = (name: string) => name.split('/')[levels - 1] ?? '';
      const folders = new Map<string, Row>();
      const leaves: Row[] = [];
      for (const row of rows) {
        const folder = commonPrefix(row.name, prefix);
        if (folder === undefined) {
          leaves.push({ key: keyOf(row.name), ...row });
          continue;
        }
        const seen = folders.get(folder);
        const name = folder.slice(0, -1);
        // search_by_timestamp dates a folder by its oldest object; the name order leaves them null.
        const created = timeColumn ? row.created_at : null;
        if (!seen) {
          folders.set(folder, {
            key: keyOf(name),
            name,
            id: null,
            updated_at: created,
            created_at: created,
            last_accessed_at: null,
            metadata: null,
          });
        } else if (created && (!seen.created_at || created < seen.created_at)) {
          seen.created_at = created;
          seen.updated_at = created;
        }
      }
      if (timeColumn) {
        result = [...folders.values(), ...leaves];
        if (start) result = result.filter((row) => afterKey(timeColumn, row));
        result.sort(byTime(timeColumn));
      } else {
        // A folder sorts at its common prefix ("a/b/"), a leaf at its name; a cursor on a folder
        // continues after everything under it.
        const entries = [...[...folders].map(([sortKey, row]) => ({ sortKey, row })), ...leaves.map((row) => ({ sortKey: row.name, row }))];
        entries.sort((a, b) => byteCompare(a.sortKey, b.sortKey) * (asc ? 1 : -1));
        let kept = entries;
        if (start) {
          const isFolder = rows.some((row) => row.name.startsWith(`${start}/`));
          const cursorKey = isFolder ? `${start}/` : start;
          kept = entries.filter((e) => byteCompare(e.sortKey, cursorKey) * (asc ? 1 : -1) > 0);
        }
        result = kept.map((e) => e.row);
      }
      result = result.slice(0, limit + 1);
    }

    const hasNext = result.length > limit;
    const page = result.slice(0, limit);
    const folders: Row[] = [];
    const objects: Row[] = [];
    for (const row of page) {
      if (row.id === null) folders.push({ ...row, name: row.name.endsWith('/') ? row.name : `${row.name}/` });
      else objects.push(row);
    }
    let nextCursor: string | undefined;
    let nextCursorKey: string | undefined;
    if (hasNext) {
      const last = page[page.length - 1];
      const lastTime = column && column !== 'name' ? last[column] : null;
      nextCursor = encodeCursor({
        startAfter: last.name,
        sortOrder: order,
        sortColumn: column,
        sortColumnAfter: lastTime ? new Date(lastTime).toISOString() : undefined,
      });
      nextCursorKey = last.name;
    }
    sendJson(res, 200, { hasNext, nextCursor, nextCursorKey, folders, objects });
  }

  return { listObjectsV2 };
}
