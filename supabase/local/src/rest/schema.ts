/**
 * The schema cache, as PostgREST keeps one: the exposed schema's tables and views with their
 * columns, primary keys and foreign keys, its functions, and the API roles' settings. Read
 * from pg_catalog at start and again on 'schema-changed'.
 */
import type { Database } from '../db/types.ts';

export interface Column {
  name: string;
  /** format_type(): a valid SQL type name, safe to put in a cast. */
  type: string;
  /** The type without modifier (bpchar, not character(2)): for casting filter values. */
  baseType?: string;
  notNull: boolean;
  hasDefault: boolean;
  generated: boolean;
  /**
   * The default as PostgREST's schema cache reads it (column_default: a domain's default, an
   * identity column's `nextval('<its sequence>')`, none for a generated column, else the
   * column's own), evaluated per row for `Prefer: missing=default`.
   */
  default?: string | null;
}
export interface Table {
  name: string;
  kind: string;
  columns: Column[];
  byName: Map<string, Column>;
  pk: string[];
  /**
   * Computed fields (PostgREST docs, "Computed Fields"): functions of the schema taking this
   * table's row type first (any further argument has a default) and returning one scalar;
   * `sql` is the qualified function name. Selected, filtered and ordered by name, never in `*`.
   */
  computed?: Map<string, { sql: string; type: string }>;
  /**
   * Computed relationships (PostgREST docs, "Computed Relationships"): functions of one
   * argument, this table's row type, returning rows of a table of the schema; to-one when not
   * SETOF or declared `rows 1` (PostgREST's allComputedRels).
   */
  computedRels?: Map<string, { sql: string; table: string; toOne: boolean }>;
}
export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  foreignTable: string;
  foreignColumns: string[];
  /** The FK columns are unique in `table`: the reverse direction is one-to-one. */
  unique: boolean;
}
export interface FunctionArg {
  name: string;
  type: string;
  hasDefault: boolean;
}
export interface PgFunction {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** 'scalar' | 'composite' (a table's row type or RETURNS TABLE/OUT params) | 'void' */
  returnKind: 'scalar' | 'composite' | 'void';
  retType: string;
  /** When the function returns rows of a table of the schema: that table (for embeds). */
  retTable?: string;
  /** Output columns for RETURNS TABLE / OUT params. */
  outColumns: Column[];
  volatile: boolean;
  /** A VARIADIC parameter (PostgREST passes repeated or array values to it; not implemented here). */
  variadic?: boolean;
}
export interface SchemaCache {
  schema: string;
  tables: Map<string, Table>;
  fks: ForeignKey[];
  functions: Map<string, PgFunction[]>;
  /** statement_timeout per API role (pg_db_role_setting), as PostgREST applies it. */
  roleTimeouts: Map<string, string>;
  /** `alter role authenticator set pgrst.db_aggregates_enabled = 'true'` (off on hosted Supabase). */
  aggregatesEnabled: boolean;
  /**
   * `pgrst.db_tx_end` on authenticator, PostgREST's db-tx-end: whether every transaction rolls
   * back, and whether `Prefer: tx=` may override that (default `commit`: no, and no).
   */
  txEnd: TxEnd;
}
export interface TxEnd {
  rollbackAll: boolean;
  allowOverride: boolean;
}

/** db-tx-end's values (PostgREST's Config.hs parseTxEnd). */
const TX_END: Record<string, TxEnd> = {
  commit: { rollbackAll: false, allowOverride: false },
  'commit-allow-override': { rollbackAll: false, allowOverride: true },
  rollback: { rollbackAll: true, allowOverride: false },
  'rollback-allow-override': { rollbackAll: true, allowOverride: true },
};

const TABLES_SQL = `
select coalesce(json_agg(t order by t.name), '[]') as data from (
  select c.relname as name, c.relkind::text as kind,
    coalesce((select json_agg(json_build_object(
        'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'baseType', format_type(a.atttypid, null), 'notNull', a.attnotnull,
        'hasDefault', a.atthasdef or a.attidentity <> '', 'generated', a.attgenerated <> '',
        'default', case
          when ty.typbasetype <> 0 and ad.adbin is null then pg_get_expr(ty.typdefaultbin, 0)
          when a.attidentity = 'd' then format('nextval(%L)', pg_get_serial_sequence(format('%I.%I', (select n.nspname from pg_namespace n where n.oid = c.relnamespace), c.relname), a.attname))
          when a.attgenerated = 's' then null
          else pg_get_expr(ad.adbin, ad.adrelid) end) order by a.attnum)
      from pg_attribute a join pg_type ty on ty.oid = a.atttypid
        left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
      where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns,
    coalesce((select json_agg(a.attname order by k.ord) from pg_constraint p
        cross join unnest(p.conkey) with ordinality k(attnum, ord)
        join pg_attribute a on a.attrelid = p.conrelid and a.attnum = k.attnum
      where p.conrelid = c.oid and p.contype = 'p'), '[]') as pk
  from pg_class c where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'v', 'm', 'f', 'p')
) t`;

const FKS_SQL = `
select coalesce(json_agg(f order by f.table, f.name), '[]') as data from (
  select con.conname as name, src.relname as table, tgt.relname as "foreignTable",
    (select json_agg(a.attname order by k.ord) from unnest(con.conkey) with ordinality k(n, ord)
       join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n) as columns,
    (select json_agg(a.attname order by k.ord) from unnest(con.confkey) with ordinality k(n, ord)
       join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n) as "foreignColumns",
    exists (select 1 from pg_constraint u where u.conrelid = con.conrelid and u.contype in ('p', 'u')
       and u.conkey @> con.conkey and u.conkey <@ con.conkey) as unique
  from pg_constraint con
  join pg_class src on src.oid = con.conrelid
  join pg_class tgt on tgt.oid = con.confrelid
  where con.contype = 'f' and src.relnamespace = $1::regnamespace and tgt.relnamespace = $1::regnamespace
) f`;

const FUNCTIONS_SQL = `
select coalesce(json_agg(f order by f.name, json_array_length(f."argTypes"), f."argTypes"::text), '[]') as data from (
  select p.proname as name, p.proretset as "returnsSet", t.typtype::text as "retTypeType",
    format_type(p.prorettype, null) as "retType", t.typrelid <> 0 as "retComposite",
    case when rc.relnamespace = $1::regnamespace then rc.relname end as "retTable",
    (select ac.relname from pg_type at join pg_class ac on ac.oid = at.typrelid
      where p.pronargs > 0 and at.oid = p.proargtypes[0] and ac.relnamespace = $1::regnamespace) as "rowArgTable",
    p.provolatile = 'v' as volatile, p.pronargdefaults as "nDefaults", p.prorows = 1 as "rowsOne",
    coalesce(p.proargnames, '{}') as "argNames",
    coalesce(p.proargmodes::text[], '{}') as "argModes",
    coalesce((select json_agg(format_type(x, null) order by o)
       from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(x, o)), '[]') as "argTypes",
    coalesce((select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) order by a.attnum)
       from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped), '[]') as "retColumns"
  from pg_proc p
  join pg_type t on t.oid = p.prorettype
  left join pg_class rc on rc.oid = t.typrelid
  where p.pronamespace = $1::regnamespace and p.prokind = 'f'
) f`;

const ROLE_SETTINGS_SQL = `
select coalesce(json_agg(json_build_object('role', r.rolname, 'config', s.setconfig)), '[]') as data
from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
where s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
  and r.rolname in ('anon', 'authenticated', 'service_role', 'authenticator')`;

interface RawFunction {
  name: string;
  returnsSet: boolean;
  retTypeType: string;
  retType: string;
  retComposite: boolean;
  retTable: string | null;
  rowArgTable: string | null;
  rowsOne: boolean;
  volatile: boolean;
  nDefaults: number;
  argNames: string[];
  argModes: string[];
  argTypes: string[];
  retColumns: { name: string; type: string }[];
}

const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export async function loadSchema(db: Database, schema = 'public'): Promise<SchemaCache> {
  // An empty search_path makes format_type() qualify every type outside pg_catalog
  // (public.order_kind, extensions.citext), so the names work whatever the caller's path.
  const [tablesR, fksR, fnsR, rolesR] = await db.transaction(async (tx) => {
    await tx.query(`select set_config('search_path', '', true)`);
    return [
      await tx.query<{ data: unknown }>(TABLES_SQL, [schema]),
      await tx.query<{ data: unknown }>(FKS_SQL, [schema]),
      await tx.query<{ data: unknown }>(FUNCTIONS_SQL, [schema]),
      await tx.query<{ data: unknown }>(ROLE_SETTINGS_SQL),
    ];
  });
  const tables = new Map<string, Table>();
  for (const t of parseJson<Omit<Table, 'byName'>[]>(tablesR.rows[0].data)) {
    tables.set(t.name, { ...t, byName: new Map(t.columns.map((c) => [c.name, c])) });
  }
  const fks = parseJson<ForeignKey[]>(fksR.rows[0].data);
  const functions = new Map<string, PgFunction[]>();
  for (const raw of parseJson<RawFunction[]>(fnsR.rows[0].data)) {
    const modes = raw.argModes.length ? raw.argModes : raw.argTypes.map(() => 'i');
    const inputs: FunctionArg[] = [];
    const outs: Column[] = [];
    let variadic = false;
    raw.argTypes.forEach((type, i) => {
      const name = raw.argNames[i] ?? '';
      if (modes[i] === 'i' || modes[i] === 'b') inputs.push({ name, type, hasDefault: false });
      else if (modes[i] === 'v') {
        variadic = true;
        inputs.push({ name, type, hasDefault: false });
      }
      if (modes[i] === 'o' || modes[i] === 'b' || modes[i] === 't')
        outs.push({ name, type, notNull: false, hasDefault: false, generated: false });
    });
    for (let i = inputs.length - raw.nDefaults; i < inputs.length; i++) if (i >= 0) inputs[i].hasDefault = true;
    let returnKind: PgFunction['returnKind'] = 'scalar';
    let outColumns: Column[] = [];
    if (raw.retType === 'void') returnKind = 'void';
    else if (raw.retComposite) {
      returnKind = 'composite';
      outColumns = raw.retColumns.map((c) => ({ ...c, notNull: false, hasDefault: false, generated: false }));
    } else if (raw.retType === 'record' && outs.length > 0) {
      returnKind = 'composite';
      outColumns = outs;
    } else if (outs.length === 1) {
      // a single OUT parameter: the function returns that scalar
      returnKind = 'scalar';
    } else if (raw.retType === 'record' || raw.retTypeType === 'p') {
      if (raw.retType !== 'trigger' && raw.retType !== 'event_trigger') returnKind = 'scalar';
      else continue;
    }
    const fn: PgFunction = {
      name: raw.name,
      args: inputs,
      returnsSet: raw.returnsSet,
      returnKind,
      retType: raw.retType,
      retTable: raw.retTable ?? undefined,
      outColumns,
      volatile: raw.volatile,
      variadic: variadic || undefined,
    };
    const rowOf = raw.rowArgTable ? tables.get(raw.rowArgTable) : undefined;
    const qualified = `"${schema.replace(/"/g, '""')}"."${raw.name.replace(/"/g, '""')}"`;
    if (rowOf && inputs.slice(1).every((a) => a.hasDefault) && returnKind === 'scalar' && !raw.returnsSet) {
      (rowOf.computed ??= new Map()).set(raw.name, { sql: qualified, type: raw.retType });
    }
    if (rowOf && inputs.length === 1 && returnKind === 'composite' && raw.retTable && tables.has(raw.retTable)) {
      (rowOf.computedRels ??= new Map()).set(raw.name, { sql: qualified, table: raw.retTable, toOne: !raw.returnsSet || raw.rowsOne });
    }
    // PostgREST's schema cache keeps only callable functions: no unnamed parameter, or one of
    // type bytea, json, jsonb, text or xml (SchemaCache.hs funcsSqlQuery, `callable`)
    const unnamed = inputs.filter((a) => a.name === '');
    if (unnamed.length > 1 || (unnamed.length === 1 && !['bytea', 'json', 'jsonb', 'text', 'xml'].includes(unnamed[0].type))) continue;
    const list = functions.get(raw.name) ?? [];
    list.push(fn);
    functions.set(raw.name, list);
  }
  const roleTimeouts = new Map<string, string>();
  let aggregatesEnabled = false;
  let txEnd = TX_END.commit;
  for (const r of parseJson<{ role: string; config: string[] }[]>(rolesR.rows[0].data)) {
    for (const setting of r.config ?? []) {
      const eq = setting.indexOf('=');
      const [key, value] = [setting.slice(0, eq), setting.slice(eq + 1)];
      if (r.role === 'authenticator') {
        if (key === 'pgrst.db_aggregates_enabled') aggregatesEnabled = ['true', 'on', '1', 'yes'].includes(value.trim().toLowerCase());
        if (key === 'pgrst.db_tx_end') {
          // PostgREST refuses such a configuration; so does the stack (at start, or the reload keeps the old cache)
          txEnd = TX_END[value.trim()];
          if (!txEnd)
            throw new Error(
              `pgrst.db_tx_end = '${value}' on role authenticator: Invalid transaction termination. Check your configuration. (PostgREST's db-tx-end takes ${Object.keys(TX_END).join(', ')})`,
            );
        }
      } else if (key === 'statement_timeout') roleTimeouts.set(r.role, value);
    }
  }
  return { schema, tables, fks, functions, roleTimeouts, aggregatesEnabled, txEnd };
}
