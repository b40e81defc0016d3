/**
 * /rpc/<name>: calling a database function. The arguments come from the query string (GET,
 * HEAD: what does not parse as a filter) or the JSON body (POST, or a single unnamed json
 * parameter); the overload is chosen by argument names (PGRST202 none, PGRST203 several). The
 * call runs read-only for GET and for stable or immutable functions; its result is answered as
 * nothing (void: 204), a scalar, or rows that are filtered, ordered, embedded and paged like a
 * table's. As PostgREST's CallPlan and callPlanToQuery.
 */
import { HttpError } from '../http.ts';
import { apiError, notImplemented, pgrstBody } from './errors.ts';
import { run } from './execute.ts';
import { Params, quoteIdent } from './params.ts';
import { readPayloadText } from './payload.ts';
import { Aliases, applyQuery, buildNode, closest, failDuplicateEmbeds } from './plan.ts';
import { readSql } from './query.ts';
import { checkPreferences, parseQuery, rangeLimit, shouldCount, topRange, type RestRequest } from './request.ts';
import { JSON_TYPE, contentRange, finishRead, preferenceApplied, type Outcome, type ReadRow } from './respond.ts';
import type { PgFunction, SchemaCache, Table } from './schema.ts';

export async function planRpc(r: RestRequest, name: string): Promise<() => Promise<Outcome>> {
  const { method, req, url, cache, prefer, accept, maxRows } = r;
  const rpcRead = method === 'GET' || method === 'HEAD';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw apiError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
  }
  const q = parseQuery(url.searchParams, rpcRead);
  let args: Record<string, unknown>;
  /** The JSON body as sent, for a single unnamed parameter (a form or CSV body goes as its JSON). */
  let rawJson: string | undefined;
  if (rpcRead) args = Object.fromEntries(q.args);
  else {
    const payload = await readPayloadText(req, true);
    const body = payload.value;
    args = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const jsonBody = !/x-www-form-urlencoded|text\/csv/.test(req.headers['content-type'] ?? '');
    if (jsonBody) rawJson = payload.text.trim() === '' ? '{}' : payload.text;
  }
  const keys = Object.keys(args);
  const candidates = cache.functions.get(name) ?? [];
  // PostgREST's findProc: the functions whose parameter names fit the keys (an unnamed one is
  // named ''), else those with a single unnamed json/jsonb parameter for a JSON POST
  const matches = candidates.filter(
    (f) => keys.every((k) => f.args.some((a) => a.name === k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name)),
  );
  const fallback =
    matches.length || rawJson === undefined
      ? []
      : candidates.filter((f) => f.args.length === 1 && f.args[0].name === '' && isJson(f.args[0].type));
  const found = matches.length ? matches : fallback;
  if (found.length > 1) {
    throw new HttpError(
      300,
      pgrstBody(
        'PGRST203',
        `Could not choose the best candidate function between: ${found.map((f) => `${cache.schema}.${f.name}(${f.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
        null,
        'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      ),
    );
  }
  const fn: PgFunction | undefined = found[0];
  if (!fn) throw noRpc(cache, name, keys, !rpcRead, candidates);
  // a single unnamed parameter is passed by position: the whole body (PostgREST's OnePosParam)
  const positional = fn.args.length === 1 && fn.args[0].name === '';
  if (fn.variadic) throw notImplemented(`calling the VARIADIC function ${cache.schema}.${fn.name}`);
  checkPreferences(prefer);
  if (prefer.strict && prefer.maxAffected !== undefined && !fn.returnsSet) {
    throw apiError(400, 'PGRST128', 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict');
  }
  // PostgREST's txMode: GET, and POST to a stable or immutable function, run read-only
  const readOnly = rpcRead || !fn.volatile;
  const p = new Params();
  const callArgs = positional
    ? p.add(rawJson ?? JSON.stringify(args), fn.args[0].type)
    : (() => {
        const json = keys.length ? p.add(JSON.stringify(args), 'json') : '';
        return keys
          .map((k) => {
            const a = fn!.args.find((x) => x.name === k)!;
            return `${quoteIdent(k)} := (select _a.${quoteIdent(k)} from json_to_record(${json}) as _a(${quoteIdent(k)} ${a.type}))`;
          })
          .join(', ');
      })();
  const call = `${quoteIdent(cache.schema)}.${quoteIdent(fn.name)}(${callArgs})`;
  const range = topRange(method, req.headers.range, q.limits.get(''), q.offsets.get(''), maxRows);
  const limit = rangeLimit(range);
  const isHead = method === 'HEAD';
  // a function's rows are counted for count=exact and count=estimated; count=planned gives no
  // total (PostgREST's shouldCount; its planner estimate is for tables and views only)
  const counting = shouldCount(prefer);
  const f = fn;

  if (f.returnKind === 'void') {
    return () =>
      run(
        r,
        async (tx) => {
          await tx.query(`select ${call}`, p.values);
          return { status: 204, headers: { 'content-range': contentRange(0, 0, undefined), ...preferenceApplied(prefer, 'rpc', false) } };
        },
        readOnly,
      );
  }
  if (f.returnKind === 'scalar') {
    if (accept.csv)
      throw notImplemented(
        'text/csv responses of functions that return scalars (only rows of tables, views and functions returning rows are answered as CSV)',
      );
    let sql: string;
    if (f.returnsSet) {
      const lim = `${limit !== undefined ? ` limit ${p.add(String(limit), 'bigint')}` : ''}${range.offset ? ` offset ${p.add(String(range.offset), 'bigint')}` : ''}`;
      const total = counting ? `, (select count(*) from ${call} as _c)::text as total` : '';
      sql = `select ${accept.single ? `coalesce((json_agg(_pgrst_t.pgrst_scalar)->0)::text, 'null')` : `coalesce(json_agg(_pgrst_t.pgrst_scalar), '[]')::text`} as body, count(_pgrst_t)::int as n${total} from (select pgrst_scalar from ${call} as _pgrst_f(pgrst_scalar)${lim}) as _pgrst_t`;
    } else {
      sql = `select coalesce((json_agg(_pgrst_t.pgrst_scalar)->0)::text, 'null') as body, count(_pgrst_t)::int as n${counting ? `, '1' as total` : ''} from (select ${call} as pgrst_scalar) as _pgrst_t`;
    }
    return () =>
      run(
        r,
        async (tx) => {
          const { rows } = await tx.query<ReadRow>(sql, p.values);
          return finishRead(r, rows[0], range, { isHead, rpc: true });
        },
        readOnly,
      );
  }
  // composite: rows of a table type or RETURNS TABLE / OUT columns
  const table: Table =
    f.retTable && cache.tables.get(f.retTable)
      ? cache.tables.get(f.retTable)!
      : { name: f.name, kind: 'f', columns: f.outColumns, byName: new Map(f.outColumns.map((c) => [c.name, c])), pk: [] };
  const root = buildNode(cache, table, call, f.name, f.name, q.select, new Aliases());
  applyQuery(root, q);
  failDuplicateEmbeds(root);
  root.limit = limit;
  root.offset = range.offset;
  const single = accept.single || !f.returnsSet;
  const sql = readSql(root, p, { count: counting, single, csv: accept.csv });
  return () =>
    run(
      r,
      async (tx) => {
        const { rows } = await tx.query<ReadRow>(sql, p.values);
        const row = rows[0];
        if (!f.returnsSet && !accept.single) {
          return finishRead(r, row, range, { isHead, contentType: JSON_TYPE, rpc: true });
        }
        return finishRead(r, row, range, { isHead, rpc: true });
      },
      readOnly,
    );
}

function noRpc(cache: SchemaCache, name: string, keys: string[], isPost: boolean, overloads: PgFunction[]) {
  const func = `${cache.schema}.${name}`;
  const prms = keys.join(', ');
  const msg = `Could not find the function ${func}${keys.length ? `(${prms})` : ' without parameters'} in the schema cache`;
  const withParams = keys.length ? ` with parameter${keys.length > 1 ? 's' : ''} ${prms}` : ' without parameters';
  const details = `Searched for the function ${func}${withParams}${isPost ? ' or with a single unnamed json/jsonb parameter' : ''}, but no matches were found in the schema cache.`;
  let hint: string | null = null;
  if (overloads.length) {
    const sig = (names: string[]) => `(${[...names].sort().join(', ')})`;
    const best = closest(
      sig(keys),
      overloads.map((o) => sig(o.args.map((a) => a.name))),
    );
    if (best) hint = `Perhaps you meant to call the function ${func}${best}`;
  } else {
    const best = closest(name, [...cache.functions.keys()]);
    if (best) hint = `Perhaps you meant to call the function ${cache.schema}.${best}`;
  }
  return apiError(404, 'PGRST202', msg, details, hint);
}

const isJson = (type: string) => type === 'json' || type === 'jsonb';
