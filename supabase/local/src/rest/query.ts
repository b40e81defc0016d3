/**
 * From parsed URL parts to one SQL statement whose single row carries the response body as
 * text built by Postgres (json_agg/row_to_json), so PGlite and Postgres answer the same bytes.
 * Every identifier is checked against the schema cache and quoted; every value is a parameter
 * (or, for a read sent as one simple query, a quoted text literal: Params.inline).
 */
import { literal } from '../db/request.ts';
import { HttpError } from '../http.ts';
import { apiError, columnNotFound, notImplemented } from './errors.ts';
import type { Column, ForeignKey, SchemaCache, Table } from './schema.ts';
import type { Condition, FieldRef, Filter, OrderTerm, SelectItem } from './parse.ts';

export const quoteIdent = (id: string) => `"${id.replace(/"/g, '""')}"`;

export class Params {
  readonly values: (string | null)[] = [];
  /**
   * inline: each value goes into the statement as a text literal (`E'…'::text` in place of
   * `$n::text`, the same value of the same type) so a read can travel as one simple query with
   * its transaction (db/request.ts, readAsRequest); the values are still collected.
   */
  constructor(readonly inline = false) {}
  /** True when a value cannot be written as a literal (a NUL: as a parameter it fails as before). */
  get inlinable(): boolean {
    return !this.values.some((v) => v !== null && v.includes('\0'));
  }
  /** A text parameter, optionally cast to a type from the schema cache. */
  add(value: string | null, type?: string): string {
    this.values.push(value);
    const p = this.inline ? (value === null ? 'null::text' : `${literal(value)}::text`) : `$${this.values.length}::text`;
    return type && type !== 'text' ? `cast(${p} as ${type})` : p;
  }
}

export interface Relationship {
  fk: ForeignKey;
  toOne: boolean;
  /** Columns of the embedded (child) relation and of the parent, pairwise equal. */
  childCols: string[];
  parentCols: string[];
  cardinality: 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';
  /** Many-to-many through a junction table: FKs from the junction to the parent and the child. */
  junction?: { table: string; source: ForeignKey; target: ForeignKey };
  /** A computed relationship: the qualified function the parent's row is passed to. */
  computed?: string;
}

export interface Node {
  table: Table;
  /** SQL for the FROM item (without alias). */
  from: string;
  alias: string;
  /** The relation's name as PostgREST reports it in errors. */
  relName: string;
  items: SelectItem[];
  embeds: Embed[];
  filters: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}
export interface Embed {
  node: Node;
  /** Name used in filter/order paths and as the JSON key. */
  name: string;
  rel: Relationship;
  inner: boolean;
  /** `rel=is.null` / `rel=not.is.null` filters on the parent. */
  nullFilters: ('null' | 'not_null')[];
  cacheSchema: string;
  /** `...rel(cols)`: the to-one resource's columns become the parent's. */
  spread: boolean;
}

export class Aliases {
  private n = 0;
  next(name: string) {
    return `${name}_${++this.n}`;
  }
}

/** Candidate relationships from `table` to `target` (a table, FK constraint or FK column name). */
function relationships(cache: SchemaCache, table: string, target: string, hint?: string): Relationship[] {
  const out: Relationship[] = [];
  for (const fk of cache.fks) {
    // many-to-one: table has the FK pointing at target
    if (fk.table === table && (fk.foreignTable === target || fk.name === target || (fk.columns.length === 1 && fk.columns[0] === target))) {
      out.push({ fk, toOne: true, childCols: fk.foreignColumns, parentCols: fk.columns, cardinality: 'many-to-one' });
    }
    // one-to-many (or one-to-one): target has an FK pointing at table
    if (fk.foreignTable === table && fk.table === target) {
      out.push({
        fk,
        toOne: fk.unique,
        childCols: fk.columns,
        parentCols: fk.foreignColumns,
        cardinality: fk.unique ? 'one-to-one' : 'one-to-many',
      });
    }
  }
  // many-to-many: a junction table whose primary key holds FKs to both sides
  for (const junction of cache.tables.values()) {
    if (junction.pk.length === 0) continue;
    const jfks = cache.fks.filter((f) => f.table === junction.name && f.columns.every((c) => junction.pk.includes(c)));
    for (const source of jfks) {
      if (source.foreignTable !== table) continue;
      for (const target2 of jfks) {
        if (target2 === source || target2.foreignTable !== target) continue;
        out.push({
          fk: target2,
          toOne: false,
          childCols: target2.foreignColumns,
          parentCols: source.foreignColumns,
          cardinality: 'many-to-many',
          junction: { table: junction.name, source, target: target2 },
        });
      }
    }
  }
  if (hint === undefined) return out;
  const m2m = out.filter(
    (r) => r.junction && (r.junction.table === hint || r.junction.source.name === hint || r.junction.target.name === hint),
  );
  if (m2m.length) return m2m;
  return out.filter(
    (r) =>
      r.fk.name === hint ||
      (r.fk.columns.length === 1 && r.fk.columns[0] === hint) ||
      (r.fk.foreignColumns.length === 1 && r.fk.foreignColumns[0] === hint && r.cardinality === 'many-to-one'),
  );
}

const fmt = (cols: string[]) => `(${cols.join(', ')})`;

function resolveRelationship(cache: SchemaCache, parent: Table, target: string, hint?: string): { rel: Relationship; child: Table } {
  // a computed relationship of that name overrides foreign keys (PostgREST 10, #2144)
  const comp = parent.computedRels?.get(target);
  const compChild = comp && cache.tables.get(comp.table);
  if (comp && compChild) {
    const fk: ForeignKey = {
      name: target,
      table: parent.name,
      columns: [],
      foreignTable: comp.table,
      foreignColumns: [],
      unique: comp.toOne,
    };
    return {
      rel: {
        fk,
        toOne: comp.toOne,
        childCols: [],
        parentCols: [],
        cardinality: comp.toOne ? 'many-to-one' : 'one-to-many',
        computed: comp.sql,
      },
      child: compChild,
    };
  }
  const rels = relationships(cache, parent.name, target, hint);
  if (rels.length === 0) {
    const child = cache.tables.get(target);
    const isView = (t?: Table) => t?.kind === 'v' || t?.kind === 'm';
    if (isView(parent) || isView(child)) {
      throw notImplemented(
        `embedding through views ('${parent.name}' with '${target}': PostgREST infers a view's relationships from the foreign keys of its base tables)`,
      );
    }
    const parentKnown = cache.fks.some((f) => f.table === parent.name || f.foreignTable === parent.name);
    const children = new Set(
      cache.fks.flatMap((f) => (f.table === parent.name ? [f.foreignTable] : f.foreignTable === parent.name ? [f.table] : [])),
    );
    const suggestion = parentKnown && !children.has(target) ? closest(target, [...children]) : undefined;
    throw apiError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${parent.name}' and '${target}'${hint ? `' using the hint '${hint}` : ''} in the schema '${cache.schema}', but no matches were found.`,
      suggestion ? `Perhaps you meant '${suggestion}' instead of '${target}'.` : null,
    );
  }
  if (rels.length > 1) {
    ambiguous(parent.name, target, rels);
  }
  const rel = rels[0];
  const childName = rel.cardinality === 'many-to-one' || rel.junction ? rel.fk.foreignTable : rel.fk.table;
  const child = cache.tables.get(childName);
  if (!child) throw apiError(400, 'PGRST200', `Could not find a relationship between '${parent.name}' and '${target}' in the schema cache`);
  return { rel, child };
}

function ambiguous(parent: string, target: string, rels: Relationship[]): never {
  const details = rels.map((r) => ({
    cardinality: r.cardinality,
    embedding: `${parent} with ${target}`,
    relationship: r.junction
      ? `${r.junction.table} using ${r.junction.source.name}${fmt(r.junction.source.columns)} and ${r.junction.target.name}${fmt(r.junction.target.columns)}`
      : `${r.fk.name} using ${r.fk.table}${fmt(r.fk.columns)} and ${r.fk.foreignTable}${fmt(r.fk.foreignColumns)}`,
  }));
  const hints = rels.map((r) => `'${target}!${r.junction ? r.junction.table : r.fk.name}'`).join(', ');
  throw new HttpError(300, {
    code: 'PGRST201',
    details,
    hint: `Try changing '${target}' to one of the following: ${hints}. Find the desired relationship in the 'details' key.`,
    message: `Could not embed because more than one relationship was found for '${parent}' and '${target}'`,
  });
}

/** Fuzzy-ish suggestion (PostgREST uses a fuzzy set; close names by edit distance here). */
export function closest(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  for (const c of candidates) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    const score = 1 - d / Math.max(name.length, c.length, 1);
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return bestScore >= 0.6 ? best : undefined;
}
function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return dp[b.length];
}

/**
 * Aggregates in select: hosted Supabase runs PostgREST with db-aggregates-enabled off (PGRST123);
 * a project that turns it on (pgrst.db_aggregates_enabled on authenticator) gets the clear error.
 */
function aggregateError(cache: SchemaCache, what: string) {
  if (!cache.aggregatesEnabled) return apiError(400, 'PGRST123', 'Use of aggregate functions is not allowed');
  return notImplemented(`aggregate functions in select (${what})`);
}

/** Builds the tree of nodes for a select list, resolving embeds through foreign keys. */
export function buildNode(
  cache: SchemaCache,
  table: Table,
  from: string,
  alias: string,
  relName: string,
  items: SelectItem[],
  aliases: Aliases,
): Node {
  const node: Node = { table, from, alias, relName, items, embeds: [], filters: [], order: [] };
  for (const item of items) {
    if (item.kind === 'field') {
      if (item.aggregate) throw aggregateError(cache, `${item.field.name}.${item.aggregate}()`);
      if (!table.byName.has(item.field.name) && !table.computed?.has(item.field.name)) throw columnNotFound(relName, item.field.name);
    } else if (item.kind === 'embed') {
      if (item.name === 'count' && item.children.length === 0 && !cache.tables.has('count')) throw aggregateError(cache, 'count()');
      const { rel, child } = resolveRelationship(cache, table, item.name, item.hint);
      const name = item.alias ?? item.name;
      if (item.spread && !rel.toOne) {
        // PostgREST 12 answered PGRST119; 13 spreads to-many embeds into arrays (#3041)
        throw notImplemented(`spreading a to-many embed ('...${item.name}' from '${relName}'; PostgREST 13 returns its columns as arrays)`);
      }
      const childFrom = rel.computed ? `${rel.computed}(${quoteIdent(alias)})` : `${quoteIdent(cache.schema)}.${quoteIdent(child.name)}`;
      const childNode = buildNode(
        cache,
        child,
        childFrom,
        aliases.next(child.name),
        child.name,
        item.children.length ? item.children : [{ kind: 'star' }],
        aliases,
      );
      if (item.children.length === 0) childNode.items = [];
      node.embeds.push({
        node: childNode,
        name,
        rel,
        inner: item.inner,
        nullFilters: [],
        cacheSchema: cache.schema,
        spread: !!item.spread,
      });
    }
  }
  return node;
}

/** The node an embed path (`cities.boats`) names, or PGRST108. */
export function findNode(root: Node, path: string[]): Node {
  let node = root;
  for (const name of path) {
    const e = node.embeds.find((x) => x.name === name);
    if (!e) {
      throw apiError(
        400,
        'PGRST108',
        `'${name}' is not an embedded resource in this request`,
        null,
        `Verify that '${name}' is included in the 'select' query parameter.`,
      );
    }
    node = e.node;
  }
  return node;
}

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
export function readSql(node: Node, p: Params, opts: { count: boolean; single: boolean; csv?: boolean; source?: string }): string {
  const where = whereSql(node, p);
  const whereClause = where.length ? ` where ${where.join(' and ')}` : '';
  const from = opts.source ?? `${node.from} as ${quoteIdent(node.alias)}`;
  const list = selectListSql(node, p);
  const page = `select ${list} from ${from}${whereClause}${orderSql(node, p)}${limitSql(node, p)}`;
  const agg = rowsJson(list, '_pgrst_t');
  const total = opts.count ? `, (select count(*) from ${from}${whereClause})::text as total` : '';
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
