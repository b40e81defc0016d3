/**
 * /<table>: a table or view of the exposed schema. GET and HEAD read (the range from the Range
 * header, limit/offset and max_rows; the count with Prefer: count), POST, PUT, PATCH and DELETE
 * write (write.ts). The select list and the query string are planned into a node tree first
 * (plan.ts), then built into one statement (query.ts). As PostgREST's handleRead and the
 * mutation handlers of its App.
 */
import { requestSetup } from '../db/request.ts';
import { rollsBack, runRead } from './execute.ts';
import { Params } from './params.ts';
import { readPayload } from './payload.ts';
import { applyQuery, failDuplicateEmbeds, tableNode, tableNotFound } from './plan.ts';
import { planRowsSql, readSql } from './query.ts';
import { checkPreferences, parseQuery, rangeLimit, topRange, type RestRequest } from './request.ts';
import type { Outcome } from './respond.ts';
import { planDelete, planInsert, planPut, planUpdate } from './write.ts';

export async function planTable(r: RestRequest, name: string): Promise<() => Promise<Outcome>> {
  const { cache, method, req, url, prefer, accept, maxRows } = r;
  const table = cache.tables.get(name);
  if (!table) throw tableNotFound(cache, name);
  const q = parseQuery(url.searchParams, false);
  checkPreferences(prefer);
  const p = new Params();
  const root = tableNode(cache, table, q.select);
  applyQuery(root, q);
  failDuplicateEmbeds(root);
  if (method === 'GET' || method === 'HEAD') {
    const range = topRange(method, req.headers.range, q.limits.get(''), q.offsets.get(''), maxRows);
    root.limit = rangeLimit(range);
    root.offset = range.offset;
    const isHead = method === 'HEAD';
    // count=planned asks the planner instead of counting; count=estimated counts up to
    // max_rows + 1 and asks the planner only past that (PostgREST's resultSetWTotal)
    if (prefer.count === 'planned' || prefer.count === 'estimated') {
      const estimated = prefer.count === 'estimated';
      const sql = readSql(root, p, { count: estimated, countLimit: maxRows + 1, single: accept.single, csv: accept.csv });
      const ep = new Params();
      const planRows = { sql: planRowsSql(root, ep), values: ep.values, above: estimated ? maxRows : undefined };
      return () => runRead(r, sql, p, range, { isHead, planRows });
    }
    const opts = { count: !!prefer.count, single: accept.single, csv: accept.csv };
    // The values as literals, so the read travels with its transaction in one simple query
    // (readAsRequest); not for tx=rollback (a transaction of its own), nor a value with a NUL.
    const inline = new Params(!rollsBack(r) && requestSetup.batched);
    const sql = readSql(root, inline, opts);
    if (inline.inline && inline.inlinable) return () => runRead(r, sql, inline, range, { isHead });
    return () => runRead(r, readSql(root, p, opts), p, range, { isHead });
  }
  if (method === 'DELETE') return planDelete(r, table, root, p);
  const body = await readPayload(req);
  if (method === 'POST') return planInsert(r, table, root, q, p, body);
  if (method === 'PUT') return planPut(r, table, root, q, p, body);
  return planUpdate(r, table, root, q, p, body);
}
