/**
 * Writes: POST (insert, upsert with on_conflict and resolution, missing=default), PUT (the
 * upsert of one row named by its primary key), PATCH and DELETE, each checked against the
 * schema cache (PGRST102, PGRST105, PGRST114, PGRST204) and built into statements; the rows
 * written are read back through the same node tree as a read (embeds included) when the
 * representation is asked for. As PostgREST's MutatePlan and its mutation queries
 * (QueryBuilder.mutateRequestToQuery); the answer is shaped by respond.ts.
 */
import { apiError } from './errors.ts';
import { run } from './execute.ts';
import { Params, quoteIdent } from './params.ts';
import { checkColumns, type Node } from './plan.ts';
import { readSql, whereSql } from './query.ts';
import type { ParsedQuery, RestRequest } from './request.ts';
import { finishWrite, type Outcome, type WriteKind } from './respond.ts';
import type { Table } from './schema.ts';

export function planInsert(r: RestRequest, table: Table, root: Node, q: ParsedQuery, p: Params, body: unknown): () => Promise<Outcome> {
  const rows = Array.isArray(body) ? body : [body];
  if (rows.some((row) => row === null || typeof row !== 'object' || Array.isArray(row))) {
    throw apiError(400, 'PGRST102', 'All object keys must match');
  }
  const objects = rows as Record<string, unknown>[];
  let columns = q.columns;
  if (!columns) {
    const first = Object.keys(objects[0] ?? {});
    const same = objects.every((o) => {
      const keys = Object.keys(o);
      return keys.length === first.length && keys.every((k) => first.includes(k));
    });
    if (!same) throw apiError(400, 'PGRST102', 'All object keys must match');
    columns = first;
  }
  checkColumns(table, columns);
  const allColumns = columns;
  const conflict = q.onConflict ?? (r.prefer.resolution ? table.pk : undefined);
  if (conflict) checkColumns(table, conflict);
  const upsert = r.prefer.resolution && conflict && conflict.length > 0 ? r.prefer.resolution : undefined;
  const target = `${quoteIdent(r.cache.schema)}.${quoteIdent(table.name)}`;
  // A key a row leaves out is null, or with missing=default the column's default. As
  // PostgREST's fromJsonBodyF: every default of the inserted columns is evaluated for every row
  // (`jsonb_build_object(<defaults>) || row`), so a row that brings its own id still draws
  // from the id's sequence, and later ids come out as PostgREST's.
  const withDefaults = columns.filter((c) => r.prefer.missing === 'default' && table.byName.get(c)?.default);
  const build = (p: Params) => {
    const cols = columns.map(quoteIdent).join(', ');
    const defaults = withDefaults.map((c) => `${p.add(c, 'text')}, ${table.byName.get(c)!.default}`);
    const rows = defaults.length
      ? `(select jsonb_agg(jsonb_build_object(${defaults.join(', ')}) || _pgrst_elem order by _pgrst_n)
           from jsonb_array_elements(${p.add(JSON.stringify(objects), 'jsonb')}) with ordinality _pgrst_e(_pgrst_elem, _pgrst_n))`
      : p.add(JSON.stringify(objects), 'json');
    const populate = defaults.length ? 'jsonb_populate_recordset' : 'json_populate_recordset';
    let sql = columns.length
      ? `insert into ${target} as ${quoteIdent(table.name)} (${cols}) select ${cols} from ${populate}(null::${target}, ${rows})`
      : `insert into ${target} as ${quoteIdent(table.name)} select from json_array_elements(${rows})`;
    if (upsert) {
      const target2 = conflict!.map(quoteIdent).join(', ');
      // every column of the request, as PostgREST's `DO UPDATE SET col = EXCLUDED.col` over
      // all payload columns: a key a row leaves out (missing=default) takes the column's
      // default in EXCLUDED, so the existing row gets the default, not its old value
      const sets = allColumns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
      sql +=
        upsert === 'ignore-duplicates' || sets.length === 0
          ? ` on conflict (${target2}) do nothing`
          : ` on conflict (${target2}) do update set ${sets.join(', ')}`;
    }
    return sql;
  };
  return () =>
    mutate(
      r,
      'create',
      table,
      root,
      p,
      { count: 1, build },
      { conflictTarget: !!conflict && conflict.length > 0, upsertMerge: upsert === 'merge-duplicates' && table.kind === 'r' },
    );
}

/**
 * PUT: the upsert of one row named by its whole primary key (PostgREST's
 * MutationSingleUpsert): only `pk=eq.value` filters (PGRST105), no limit/offset (PGRST114),
 * the body's key equal to the URL's (PGRST115); 201 when inserted, 200 when replaced (with
 * return=representation), else 204.
 */
export function planPut(r: RestRequest, table: Table, root: Node, q: ParsedQuery, p: Params, body: unknown): () => Promise<Outcome> {
  if (q.limits.has('') || q.offsets.has('')) throw apiError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT');
  const rootFilters = q.filters.filter((f) => f.path.length === 0).map((f) => f.filter);
  const onlyPkEq =
    table.pk.length > 0 &&
    q.logic.length === 0 &&
    rootFilters.length === table.pk.length &&
    table.pk.every((c) => rootFilters.some((f) => f.field.name === c)) &&
    rootFilters.every(
      (f) => !f.negate && f.field.path.length === 0 && f.operation.op === 'eq' && !('quant' in f.operation && f.operation.quant),
    );
  if (!onlyPkEq) throw apiError(405, 'PGRST105', "Filters must include all and only primary key columns with 'eq' operators");
  const rows = Array.isArray(body) ? body : [body];
  if (rows.some((row) => row === null || typeof row !== 'object' || Array.isArray(row)))
    throw apiError(400, 'PGRST102', 'All object keys must match');
  const first = Object.keys(rows[0] ?? {});
  const columns = q.columns ?? first;
  checkColumns(table, columns);
  const target = `${quoteIdent(r.cache.schema)}.${quoteIdent(table.name)}`;
  const build = (b: Params) => {
    const cols = columns.map(quoteIdent).join(', ');
    const payload = b.add(JSON.stringify(rows), 'json');
    const matches = rootFilters.map((f) => {
      const col = table.byName.get(f.field.name)!;
      const type = col.baseType === 'character' ? 'bpchar' : (col.baseType ?? col.type);
      return `_pgrst_b.${quoteIdent(col.name)} = ${b.add('value' in f.operation ? f.operation.value : null, type)}`;
    });
    const sets = columns.map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`);
    return (
      `insert into ${target} as ${quoteIdent(table.name)} (${cols}) select ${cols} from json_populate_recordset(null::${target}, ${payload}) as _pgrst_b where ${matches.join(' and ')}` +
      ` on conflict (${table.pk.map(quoteIdent).join(', ')}) ${sets.length ? `do update set ${sets.join(', ')}` : 'do nothing'}`
    );
  };
  return () => mutate(r, 'put', table, root, p, { count: 1, build }, { conflictTarget: true, upsertMerge: true });
}

export function planUpdate(r: RestRequest, table: Table, root: Node, q: ParsedQuery, p: Params, body: unknown): () => Promise<Outcome> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw apiError(400, 'PGRST102', 'Empty or invalid json');
  // ?columns= names the columns to set, as on POST; one the body leaves out is set to null,
  // or to its default with missing=default (PostgREST's Update over iColumns)
  const cols = q.columns ?? Object.keys(body);
  checkColumns(table, cols);
  const none = { count: 0, build: () => '' };
  if (cols.length === 0) return () => mutate(r, 'update', table, root, p, none, { conflictTarget: false, upsertMerge: false });
  const target = `${quoteIdent(r.cache.schema)}.${quoteIdent(table.name)}`;
  const where = whereOf(root, 'UPDATE');
  const sets = cols
    .map(
      (c) => `${quoteIdent(c)} = ${r.prefer.missing === 'default' && !Object.hasOwn(body, c) ? 'default' : `_pgrst_body.${quoteIdent(c)}`}`,
    )
    .join(', ');
  const build = (q: Params) =>
    `update ${target} as ${quoteIdent(table.name)} set ${sets} from (select * from json_populate_record(null::${target}, ${q.add(JSON.stringify(body), 'json')})) as _pgrst_body${where(q)}`;
  return () => mutate(r, 'update', table, root, p, { count: 1, build }, { conflictTarget: false, upsertMerge: false });
}

export function planDelete(r: RestRequest, table: Table, root: Node, p: Params): () => Promise<Outcome> {
  const target = `${quoteIdent(r.cache.schema)}.${quoteIdent(table.name)}`;
  const where = whereOf(root, 'DELETE');
  const build = (q: Params) => `delete from ${target} as ${quoteIdent(table.name)}${where(q)}`;
  return () => mutate(r, 'delete', table, root, p, { count: 1, build }, { conflictTarget: false, upsertMerge: false });
}

/**
 * The WHERE of a write: only the top level's own filters (embeds shape the returned rows). An
 * UPDATE or DELETE without one is refused as on hosted Supabase, which loads pg-safeupdate for
 * the API's sessions (`session_preload_libraries` of `authenticator`): SQLSTATE 21000 "UPDATE
 * requires a WHERE clause", answered 400 (github.com/eradman/pg-safeupdate, safeupdate.c; ADR 0021).
 */
function whereOf(root: Node, kind: 'UPDATE' | 'DELETE'): (p: Params) => string {
  const own: Node = { ...root, filters: [...root.filters], embeds: [] };
  if (whereSql(own, new Params()).length === 0) throw apiError(400, '21000', `${kind} requires a WHERE clause`);
  return (p) => {
    const conds = whereSql(own, p);
    return conds.length ? ` where ${conds.join(' and ')}` : '';
  };
}

/**
 * Runs a write: one statement per group of rows, or all of them as CTEs with the
 * representation (or the count, Location, inserted rows) read back in the same statement.
 */
async function mutate(
  r: RestRequest,
  kind: WriteKind,
  table: Table,
  root: Node,
  p: Params,
  /** Builds write statement i with its parameters in `p` (count: how many). */
  write: { count: number; build: (p: Params, i: number) => string },
  opts: { conflictTarget: boolean; upsertMerge: boolean },
): Promise<Outcome> {
  const representation = r.prefer.return === 'representation';
  // The write's filters chose the rows; the returned rows are not filtered again.
  root.filters = [];
  const headersOnly = r.prefer.return === 'headers-only' && kind === 'create';
  return run(r, async (tx) => {
    let n = 0;
    let body = '';
    let inserted = -1;
    let location: string | undefined;
    const statements = Array.from({ length: write.count }, (_, i) => i);
    if (statements.length === 0) {
      body = r.accept.csv ? '\n' : r.accept.single ? 'null' : '[]';
    } else if (representation || headersOnly || opts.upsertMerge) {
      const ctes = statements.map(
        (i) =>
          `pgrst_m${i} as (${write.build(p, i)} returning ${quoteIdent(table.name)}.*${opts.upsertMerge ? `, (${quoteIdent(table.name)}.xmax = 0) as pgrst_inserted` : ''})`,
      );
      const sourceAs = (alias: string) => `(${statements.map((i) => `select * from pgrst_m${i}`).join(' union all ')}) as ${alias}`;
      const source = sourceAs(quoteIdent(table.name));
      const read = representation
        ? readSql(root, p, { count: false, single: r.accept.single, csv: r.accept.csv, source })
        : `select null::text as body, count(*)::int as n from ${source}`;
      const extras: string[] = [];
      if (opts.upsertMerge) extras.push(`(select count(*) from ${sourceAs('_i')} where pgrst_inserted)::int as inserted`);
      if (headersOnly && table.pk.length) {
        extras.push(
          `(select json_build_object(${table.pk.map((c) => `${p.add(c)}, _l.${quoteIdent(c)}::text`).join(', ')})::text from ${sourceAs('_l')} limit 1) as location`,
        );
      }
      const sql = `with ${ctes.join(', ')} select r.*${extras.length ? ', ' + extras.join(', ') : ''} from (${read}) as r`;
      const { rows } = await tx.query<{ body: string; n: number; inserted?: number; location?: string }>(sql, p.values);
      n = rows[0].n;
      body = rows[0].body;
      if (rows[0].inserted !== undefined) inserted = rows[0].inserted;
      if (rows[0].location) {
        const loc = JSON.parse(rows[0].location) as Record<string, string>;
        location = `/${table.name}?${Object.entries(loc)
          .map(([k, v]) => `${encodeURIComponent(k)}=eq.${encodeURIComponent(v)}`)
          .join('&')}`;
      }
    } else {
      // one statement per group, each with its own parameters
      for (const i of statements) {
        const own = new Params();
        const sql = write.build(own, i);
        n += (await tx.query(sql, own.values)).rowCount;
      }
    }
    return finishWrite(r, kind, { n, body, inserted, location }, opts);
  });
}
