/**
 * Planning: what a request selects and embeds. The select list becomes a tree of nodes, one per
 * relation, each embed resolved to exactly one relationship (foreign key, junction table or
 * computed relationship) or refused as PostgREST refuses it (PGRST200, PGRST201); the query
 * string's filters, logic trees, orders and embed limits are then hung on their nodes. As
 * PostgREST's Plan (ReadPlan) over its schema cache's relationships; no SQL is written here
 * (query.ts turns the tree into a statement).
 */
import { HttpError } from '../http.ts';
import { apiError, columnNotFound, notImplemented } from './errors.ts';
import { quoteIdent } from './params.ts';
import type { ParsedQuery } from './request.ts';
import type { ForeignKey, SchemaCache, Table } from './schema.ts';
import type { Condition, OrderTerm, SelectItem } from './parse.ts';

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

/**
 * Candidate relationships from `table` to `target` (a table, FK constraint or FK column name),
 * narrowed by `hint`, as PostgREST's findRel (Plan.hs): without a hint the target is the related
 * table, a foreign key's constraint name (either direction) or the origin's FK column; with a
 * hint the target is the table and the hint a constraint, a column of either side or a junction.
 * A table that refers to itself has one foreign key but two relationships: its name as target
 * is the one-to-many (the rows referring to this one), its FK column the many-to-one; a hint
 * picks a one-to-many by the referring column.
 */
function relationships(cache: SchemaCache, table: string, target: string, hint?: string): Relationship[] {
  const out: Relationship[] = [];
  const single = (cols: string[]) => (cols.length === 1 ? cols[0] : undefined);
  for (const fk of cache.fks) {
    const self = fk.table === table && fk.foreignTable === table;
    // many-to-one: table has the FK pointing at target
    if (fk.table === table) {
      const match = self
        ? hint === undefined && !fk.unique && single(fk.columns) === target
        : hint === undefined
          ? fk.foreignTable === target || fk.name === target || single(fk.columns) === target
          : fk.foreignTable === target && (fk.name === hint || single(fk.columns) === hint || single(fk.foreignColumns) === hint);
      if (match) out.push({ fk, toOne: true, childCols: fk.foreignColumns, parentCols: fk.columns, cardinality: 'many-to-one' });
    }
    // one-to-many (or one-to-one): target has an FK pointing at table
    if (fk.foreignTable === table) {
      const match = self
        ? !fk.unique && fk.table === target && (hint === undefined || single(fk.columns) === hint)
        : hint === undefined
          ? fk.table === target || fk.name === target
          : fk.table === target && (fk.name === hint || single(fk.columns) === hint || single(fk.foreignColumns) === hint);
      if (match) {
        out.push({
          fk,
          toOne: fk.unique,
          childCols: fk.columns,
          parentCols: fk.foreignColumns,
          cardinality: fk.unique ? 'one-to-one' : 'one-to-many',
        });
      }
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
        if (hint !== undefined && junction.name !== hint && source.name !== hint && target2.name !== hint) continue;
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
  return out;
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

/**
 * Two embeds of one node under the same name (`users!first_user(*),users!second_user(*)`
 * without aliases): PostgREST joins each embed laterally as `<parent>_<alias or name>_<depth>`
 * (Plan.hs addRels, `aggAlias`), so Postgres refuses the second with 42712, which PostgREST
 * answers 400 (Error.hs pgErrorStatus). Walked as Postgres analyses the FROM list: an embed's
 * own embeds before the name of the next one at its level.
 */
export function failDuplicateEmbeds(node: Node, depth = 1) {
  const seen = new Set<string>();
  for (const e of node.embeds) {
    failDuplicateEmbeds(e.node, depth + 1);
    if (seen.has(e.name)) throw apiError(400, '42712', `table name "${node.table.name}_${e.name}_${depth}" specified more than once`);
    seen.add(e.name);
  }
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

/** Filters, logic trees, orders and embed limits onto the node tree. */
export function applyQuery(root: Node, q: ParsedQuery) {
  for (const { path, filter } of q.filters) {
    const node = findNode(root, path);
    const embed = node.table.byName.has(filter.field.name) ? undefined : node.embeds.find((e) => e.name === filter.field.name);
    if (embed && filter.operation.op === 'is' && (filter.operation.value === 'null' || filter.operation.value === 'not_null')) {
      const isNull = (filter.operation.value === 'null') !== filter.negate;
      embed.nullFilters.push(isNull ? 'null' : 'not_null');
      continue;
    }
    node.filters.push(filter);
  }
  for (const { path, tree } of q.logic) findNode(root, path).filters.push(tree);
  for (const [k, order] of q.orders) findNode(root, k ? k.split('.') : []).order = order;
  for (const [k, limit] of q.limits) if (k) findNode(root, k.split('.')).limit = limit;
  for (const [k, offset] of q.offsets) if (k) findNode(root, k.split('.')).offset = offset;
}

/** The node tree of a request to a table or view of the exposed schema. */
export function tableNode(cache: SchemaCache, table: Table, items: SelectItem[]): Node {
  return buildNode(cache, table, `${quoteIdent(cache.schema)}.${quoteIdent(table.name)}`, table.name, table.name, items, new Aliases());
}

/** PGRST205: no such table or view in the schema cache (with the closest name as a hint). */
export function tableNotFound(cache: SchemaCache, name: string) {
  const suggestion = closest(name, [...cache.tables.keys()]);
  return apiError(
    404,
    'PGRST205',
    `Could not find the table '${cache.schema}.${name}' in the schema cache`,
    null,
    suggestion ? `Perhaps you meant the table '${cache.schema}.${suggestion}'` : null,
  );
}

/** PGRST204: a payload or ?columns= column the table does not have. */
export function checkColumns(table: Table, cols: string[]) {
  for (const c of cols) {
    if (!table.byName.has(c)) throw apiError(400, 'PGRST204', `Could not find the '${c}' column of '${table.name}' in the schema cache`);
  }
}
