/**
 * SQL building: from the planned node tree (plan.ts) to one SQL statement whose single row
 * carries the response body as text built by Postgres (json_agg/row_to_json), so PGlite and
 * Postgres answer the same bytes. Every identifier is quoted; every value is a parameter (or,
 * for a read sent as one simple query, a quoted text literal: Params.inline). As PostgREST's
 * QueryBuilder and SqlFragment (filters, logic trees, orders, embeds as lateral subqueries).
 */
import { apiError, columnNotFound } from './errors.ts';
import { Params, quoteIdent } from './params.ts';
import type { Embed, Node } from './plan.ts';
import type { Column } from './schema.ts';
import type { Condition, FieldRef, Filter } from './parse.ts';

// bench/perf.bench.ts builds its statements from this module alone.
export { Aliases, buildNode } from './plan.ts';
export { Params, quoteIdent } from './params.ts';

function column(node: Node, name: string): Column {
  const c = node.table.byName.get(name);
  if (!c) throw columnNotFound(node.relName, name);
  return c;
}

/** `"alias"."col"->$1::text->>$2::text` with the type of the result. */
function fieldExpr(node: Node, f: FieldRef, p: Params): { sql: string; type: string; baseType: string } {
  const computed = node.table.byName.has(f.name) ? undefined : node.table.computed?.get(f.name);
  // a computed field: the function applied to the row, as PostgREST calls it
  const c: Column = computed
    ? { name: f.name, type: computed.type, notNull: false, hasDefault: false, generated: false }
    : column(node, f.name);
  let sql = computed ? `${computed.sql}(${quoteIdent(node.alias)})` : `${quoteIdent(node.alias)}.${quoteIdent(c.name)}`;
  // format_type(bpchar, null) is "character", which casts to char(1): compare as bpchar
  let type = c.baseType === 'character' ? 'bpchar' : c.baseType === 'bit' ? 'varbit' : (c.baseType ?? c.type);
  for (const step of f.path) {
    sql += `${step.arrow}${step.index ? `cast(${p.add(step.key)} as integer)` : p.add(step.key)}`;
    type = step.arrow === '->>' ? 'text' : type;
  }
  // a value cast to varchar(3) would be cut, not compared: casts use the type without modifier
  return { sql, type, baseType: type };
}

const OPS: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};
const FTS: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

function filterSql(node: Node, f: Filter, p: Params): string {
  const { sql: expr, baseType: type } = fieldExpr(node, f.field, p);
  const o = f.operation;
  let s: string;
  switch (o.op) {
    case 'in':
      s = o.values.length ? `${expr} in (${o.values.map((v) => p.add(v, type)).join(', ')})` : 'false';
      break;
    case 'is':
      s = `${expr} is ${o.value === 'not_null' ? 'not null' : o.value}`;
      break;
    case 'isdistinct':
      s = `${expr} is distinct from ${p.add(o.value, type)}`;
      break;
    case 'fts':
    case 'plfts':
    case 'phfts':
    case 'wfts': {
      const cfg = o.config ? `cast(${p.add(o.config)} as regconfig), ` : '';
      const doc = type === 'tsvector' ? expr : `to_tsvector(${cfg}${expr})`;
      s = `${doc} @@ ${FTS[o.op]}(${cfg}${p.add(o.value)})`;
      break;
    }
    case 'like':
    case 'ilike':
    case 'match':
    case 'imatch': {
      const value = o.op === 'like' || o.op === 'ilike' ? o.value.replace(/\*/g, '%') : o.value;
      if ('quant' in o && o.quant) s = `${expr} ${OPS[o.op]} ${o.quant}(${p.add(value, 'text[]')})`;
      else s = `${expr} ${OPS[o.op]} ${p.add(value)}`;
      break;
    }
    default:
      if ('quant' in o && o.quant) s = `${expr} ${OPS[o.op]} ${o.quant}(${p.add(o.value, `${type}[]`)})`;
      else s = `${expr} ${OPS[o.op]} ${p.add(o.value, type)}`;
  }
  return f.negate ? `not (${s})` : s;
}

function conditionSql(node: Node, c: Condition, p: Params): string {
  if (c.kind === 'filter') return filterSql(node, c, p);
  const inner = c.children.map((x) => conditionSql(node, x, p));
  const s = inner.length ? `(${inner.join(` ${c.op} `)})` : c.op === 'and' ? 'true' : 'false';
  return c.negate ? `not ${s}` : s;
}

function joinSql(parent: Node, e: Embed): string {
  // a computed relationship's function already returns only the related rows
  if (e.rel.computed) return 'true';
  const j = e.rel.junction;
  if (j) {
    const ja = quoteIdent(`${e.node.alias}_j`);
    const toChild = j.target.columns.map(
      (c, i) => `${ja}.${quoteIdent(c)} = ${quoteIdent(e.node.alias)}.${quoteIdent(j.target.foreignColumns[i])}`,
    );
    const toParent = j.source.columns.map(
      (c, i) => `${ja}.${quoteIdent(c)} = ${quoteIdent(parent.alias)}.${quoteIdent(j.source.foreignColumns[i])}`,
    );
    return `exists (select 1 from ${quoteIdent(e.cacheSchema)}.${quoteIdent(j.table)} as ${ja} where ${[...toChild, ...toParent].join(' and ')})`;
  }
  return e.rel.childCols
    .map((c, i) => `${quoteIdent(e.node.alias)}.${quoteIdent(c)} = ${quoteIdent(parent.alias)}.${quoteIdent(e.rel.parentCols[i])}`)
    .join(' and ');
}

/** The conditions on a node's own rows: its filters, !inner embeds and embed null filters. */
export function whereSql(node: Node, p: Params): string[] {
  const out = node.filters.map((f) => conditionSql(node, f, p));
  for (const e of node.embeds) {
    const wantsRow = e.inner || e.nullFilters.includes('not_null');
    const wantsNone = e.nullFilters.includes('null');
    if (!wantsRow && !wantsNone) continue;
    const conds = [joinSql(node, e), ...whereSql(e.node, p)];
    const exists = `exists (select 1 from ${e.node.from} as ${quoteIdent(e.node.alias)} where ${conds.join(' and ')})`;
    if (wantsRow) out.push(exists);
    if (wantsNone) out.push(`not ${exists}`);
  }
  return out;
}

function orderSql(node: Node, p: Params): string {
  if (node.order.length === 0) return '';
  const terms = node.order.map((t) => {
    let expr: string;
    if (t.relation) {
      const e = node.embeds.find((x) => x.name === t.relation);
      if (!e)
        throw apiError(
          400,
          'PGRST108',
          `'${t.relation}' is not an embedded resource in this request`,
          null,
          `Verify that '${t.relation}' is included in the 'select' query parameter.`,
        );
      if (!e.rel.toOne) {
        throw apiError(
          400,
          'PGRST118',
          `A related order on '${e.name}' is not possible`,
          `'${node.relName}' and '${e.name}' do not form a many-to-one or one-to-one relationship`,
        );
      }
      expr = `(select ${fieldExpr(e.node, t.field, p).sql} from ${e.node.from} as ${quoteIdent(e.node.alias)} where ${joinSql(node, e)})`;
    } else {
      expr = fieldExpr(node, t.field, p).sql;
    }
    return `${expr}${t.dir === 'desc' ? ' desc' : t.dir === 'asc' ? ' asc' : ''}${t.nulls ? ` nulls ${t.nulls}` : ''}`;
  });
  return ` order by ${terms.join(', ')}`;
}

function limitSql(node: Node, p: Params): string {
  let s = '';
  if (node.limit !== undefined) s += ` limit ${p.add(String(node.limit), 'bigint')}`;
  if (node.offset) s += ` offset ${p.add(String(node.offset), 'bigint')}`;
  return s;
}

/** The select list of a node: `expr as "key", ...` (columns, json paths, casts, embeds). */
export function selectListSql(node: Node, p: Params): string;
export function selectListSql(node: Node, p: Params, split: true): { expr: string; key: string }[];
export function selectListSql(node: Node, p: Params, split?: true): string | { expr: string; key: string }[] {
  const parts: { expr: string; key: string }[] = [];
  let embedIndex = 0;
  for (const item of node.items) {
    if (item.kind === 'star') {
      for (const c of node.table.columns) parts.push({ expr: `${quoteIdent(node.alias)}.${quoteIdent(c.name)}`, key: c.name });
    } else if (item.kind === 'field') {
      const { sql } = fieldExpr(node, item.field, p);
      const key = item.alias ?? (item.field.path.length ? item.field.path[item.field.path.length - 1].key : item.field.name);
      parts.push({ expr: item.cast ? `cast(${sql} as ${item.cast})` : sql, key });
    } else {
      const e = node.embeds[embedIndex++];
      if (e.spread) {
        const child = e.node;
        const where = [joinSql(node, e), ...whereSql(child, p)].join(' and ');
        for (const { expr, key } of selectListSql(child, p, true)) {
          parts.push({ expr: `(select ${expr} from ${child.from} as ${quoteIdent(child.alias)} where ${where})`, key });
        }
      } else if (e.node.items.length > 0) parts.push({ expr: embedSql(node, e, p), key: e.name });
      // an embed with an empty column list (`users!inner()`) only filters: PostgREST leaves
      // its key out of the result (PostgREST 12.2.2, #3093)
    }
  }
  if (split) return parts;
  return parts.length ? parts.map(({ expr, key }) => `${expr} as ${quoteIdent(key)}`).join(', ') : EMPTY_LIST;
}

/** The select list of a node that shows no key: each row is `{}`. */
const EMPTY_LIST = 'null as "pgrst_empty"';
/** json_agg of the rows of `row`, `{}` per row when the select list is empty. */
const rowsJson = (list: string, row: string) => (list === EMPTY_LIST ? `json_agg('{}'::json)` : `json_agg(${row})`);

function embedSql(parent: Node, e: Embed, p: Params): string {
  const child = e.node;
  const where = [joinSql(parent, e), ...whereSql(child, p)].join(' and ');
  const row = quoteIdent(`${child.alias}_row`);
  const list = selectListSql(child, p);
  if (e.rel.toOne) {
    const inner = `select ${list} from ${child.from} as ${quoteIdent(child.alias)} where ${where}`;
    return list !== EMPTY_LIST ? `(select row_to_json(${row}) from (${inner}) as ${row})` : `(select '{}'::json from (${inner}) as ${row})`;
  }
  const inner = `select ${list} from ${child.from} as ${quoteIdent(child.alias)} where ${where}${orderSql(child, p)}${limitSql(child, p)}`;
  return `(select coalesce(${rowsJson(list, row)}, '[]') from (${inner}) as ${row})`;
}

export interface ReadSql {
  /** One row: body (text), n (rows in the page), total (text, when counted). */
  sql: string;
}

/** `select ... from source where ... order ... limit` wrapped into the response row. */
export function readSql(
  node: Node,
  p: Params,
  opts: { count: boolean; single: boolean; csv?: boolean; source?: string; countLimit?: number },
): string {
  const where = whereSql(node, p);
  const whereClause = where.length ? ` where ${where.join(' and ')}` : '';
  const from = opts.source ?? `${node.from} as ${quoteIdent(node.alias)}`;
  const list = selectListSql(node, p);
  const page = `select ${list} from ${from}${whereClause}${orderSql(node, p)}${limitSql(node, p)}`;
  const agg = rowsJson(list, '_pgrst_t');
  // count=estimated counts at most max_rows + 1 rows (PostgREST's limitedQuery)
  const counted =
    opts.countLimit === undefined ? `${from}${whereClause}` : `(select 1 from ${from}${whereClause} limit ${opts.countLimit}) as _pgrst_c`;
  const total = opts.count ? `, (select count(*) from ${counted})::text as total` : '';
  if (opts.csv) {
    // text/csv as PostgREST's asCsvF: the first row's keys joined by commas (unquoted), a line
    // break, then each row's composite text without its parentheses (Postgres's record
    // quoting: a field with a comma, quote, backslash, parenthesis or space is double-quoted,
    // NULL is empty). The page is a CTE, evaluated once, as PostgREST's source CTE.
    const header = `(select coalesce(string_agg(_pgrst_a.k, ','), '') from (select json_object_keys(row_to_json(_pgrst_h)) as k from (select * from _pgrst_page limit 1) as _pgrst_h) as _pgrst_a)`;
    const rows = `coalesce(string_agg(substring(_pgrst_t::text, 2, length(_pgrst_t::text) - 2), E'\\n'), '')`;
    return `with _pgrst_page as (${page}) select ${header} || E'\\n' || ${rows} as body, count(_pgrst_t)::int as n${total} from _pgrst_page as _pgrst_t`;
  }
  const body = opts.single ? `coalesce((${agg}->0)::text, 'null')` : `coalesce(${agg}, '[]')::text`;
  return `select ${body} as body, count(_pgrst_t)::int as n${total} from (${page}) as _pgrst_t`;
}

/**
 * The planner's row estimate of a read (count=planned, count=estimated past max_rows):
 * `EXPLAIN (FORMAT JSON)` of `SELECT 1 FROM <table> WHERE <the read's conditions>`, as
 * PostgREST's readPlanToCountQuery and preparePlanRows ("Plan Rows" of the top node).
 */
export function planRowsSql(node: Node, p: Params): string {
  const where = whereSql(node, p);
  return `explain (format json) select 1 from ${node.from} as ${quoteIdent(node.alias)}${where.length ? ` where ${where.join(' and ')}` : ''}`;
}
