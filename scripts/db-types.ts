/**
 * `npm run db:types`: generates src/lib/database.types.ts from the catalog of a freshly
 * migrated database, in the shape of `supabase gen types typescript` (Database['public'] with
 * Tables Row/Insert/Update/Relationships, Views, Functions Args/Returns, Enums,
 * CompositeTypes, plus the Tables/TablesInsert/TablesUpdate/Enums helpers and Constants).
 * `--check` exits 1 when the checked-in file is stale. tests/db/types.test.ts runs the check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Queryable } from '../supabase/local/src/db/types.ts';

export const TYPES_PATH = resolve(import.meta.dirname, '../src/lib/database.types.ts');
const SCHEMA = 'public';

interface Column {
  table: string;
  kind: string;
  name: string;
  type: string;
  type_schema: string;
  type_kind: string;
  elem: string | null;
  elem_schema: string | null;
  elem_kind: string | null;
  nullable: boolean;
  has_default: boolean;
  identity: string;
  generated: string;
}

const scalar: Record<string, string> = {
  bool: 'boolean',
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  numeric: 'number',
  oid: 'number',
  json: 'Json',
  jsonb: 'Json',
  void: 'undefined',
  record: 'Json',
};
const stringy = new Set([
  'text',
  'varchar',
  'bpchar',
  'char',
  'name',
  'uuid',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'bytea',
  'inet',
  'cidr',
  'macaddr',
  'citext',
  'xid8',
  'tsvector',
  'tstzrange',
  'daterange',
  'int4range',
]);

function tsType(
  type: string,
  schema: string,
  kind: string,
  elem?: string | null,
  elemSchema?: string | null,
  elemKind?: string | null,
): string {
  if (elem) return `${tsType(elem, elemSchema ?? '', elemKind ?? 'b')}[]`;
  if (kind === 'e') return schema === SCHEMA ? `Database["${SCHEMA}"]["Enums"]["${type}"]` : 'string';
  if (scalar[type]) return scalar[type];
  if (stringy.has(type)) return 'string';
  return 'unknown';
}

const key = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
const indent = (text: string, n: number) =>
  text
    .split('\n')
    .map((l) => (l ? ' '.repeat(n) + l : l))
    .join('\n');
const obj = (entries: string[]) => (entries.length ? `{\n${indent(entries.join('\n'), 2)}\n}` : '{}');

export async function generateTypes(db: Queryable): Promise<string> {
  const columns = (
    await db.query<Column>(
      `select c.relname as table, c.relkind::text as kind, a.attname as name,
              t.typname as type, tn.nspname as type_schema, t.typtype::text as type_kind,
              e.typname as elem, en.nspname as elem_schema, e.typtype::text as elem_kind,
              not a.attnotnull as nullable, a.atthasdef as has_default,
              a.attidentity::text as identity, a.attgenerated::text as generated
         from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         join pg_type t on t.oid = a.atttypid
         join pg_namespace tn on tn.oid = t.typnamespace
         left join pg_type e on e.oid = t.typelem and t.typcategory = 'A'
         left join pg_namespace en on en.oid = e.typnamespace
        where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm')
        order by c.relname, a.attname`,
      [SCHEMA],
    )
  ).rows;

  const relationships = (
    await db.query<{ table: string; name: string; columns: string[]; ref: string; ref_columns: string[]; one_to_one: boolean }>(
      `select c.relname as table, con.conname as name,
              array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
                    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
              r.relname as ref,
              array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
                    join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as ref_columns,
              exists (select 1 from pg_constraint u where u.conrelid = con.conrelid and u.contype in ('p', 'u')
                      and u.conkey::int2[] @> con.conkey::int2[] and u.conkey::int2[] <@ con.conkey::int2[]) as one_to_one
         from pg_constraint con
         join pg_class c on c.oid = con.conrelid
         join pg_namespace n on n.oid = c.relnamespace
         join pg_class r on r.oid = con.confrelid
         join pg_namespace rn on rn.oid = r.relnamespace
        where con.contype = 'f' and n.nspname = $1 and rn.nspname = $1
        order by c.relname, con.conname`,
      [SCHEMA],
    )
  ).rows;

  const enums = (
    await db.query<{ name: string; labels: string[] }>(
      `select t.typname as name, array_agg(e.enumlabel::text order by e.enumsortorder) as labels
         from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_enum e on e.enumtypid = t.oid
        where n.nspname = $1 group by t.typname order by t.typname`,
      [SCHEMA],
    )
  ).rows;

  const functions = (
    await db.query<{
      name: string;
      arg_names: string[] | null;
      arg_modes: string[] | null;
      arg_types: {
        type: string;
        schema: string;
        kind: string;
        elem: string | null;
        elem_schema: string | null;
        elem_kind: string | null;
      }[];
      nargs: number;
      ndefaults: number;
      retset: boolean;
      ret: string;
      ret_schema: string;
      ret_kind: string;
      ret_elem: string | null;
      ret_elem_schema: string | null;
      ret_elem_kind: string | null;
      ret_relation: string | null;
    }>(
      `select p.proname as name, p.proargnames::text[] as arg_names, p.proargmodes::text[] as arg_modes,
              coalesce((select json_agg(json_build_object('type', t.typname, 'schema', tn.nspname, 'kind', t.typtype,
                                        'elem', e.typname, 'elem_schema', en.nspname, 'elem_kind', e.typtype) order by k.i)
                          from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality k(oid, i)
                          join pg_type t on t.oid = k.oid join pg_namespace tn on tn.oid = t.typnamespace
                          left join pg_type e on e.oid = t.typelem and t.typcategory = 'A'
                          left join pg_namespace en on en.oid = e.typnamespace), '[]'::json) as arg_types,
              p.pronargs::int as nargs, p.pronargdefaults::int as ndefaults, p.proretset as retset,
              rt.typname as ret, rtn.nspname as ret_schema, rt.typtype::text as ret_kind,
              re.typname as ret_elem, ren.nspname as ret_elem_schema, re.typtype::text as ret_elem_kind,
              case when rt.typtype = 'c' then (select rc.relname from pg_class rc where rc.oid = rt.typrelid) end as ret_relation
         from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace
         join pg_type rt on rt.oid = p.prorettype
         join pg_namespace rtn on rtn.oid = rt.typnamespace
         left join pg_type re on re.oid = rt.typelem and rt.typcategory = 'A'
         left join pg_namespace ren on ren.oid = re.typnamespace
        where n.nspname = $1 and p.prokind = 'f' and rt.typname not in ('trigger', 'event_trigger')
        order by p.proname, p.oid`,
      [SCHEMA],
    )
  ).rows;

  const byTable = new Map<string, Column[]>();
  for (const c of columns) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
  const colType = (c: Column) => tsType(c.type, c.type_schema, c.type_kind, c.elem, c.elem_schema, c.elem_kind);
  const rowEntries = (cols: Column[], allNullable = false) =>
    cols.map((c) => `${key(c.name)}: ${colType(c)}${c.nullable || allNullable ? ' | null' : ''}`);
  const relEntries = (table: string) =>
    relationships
      .filter((r) => r.table === table)
      .map((r) =>
        obj([
          `foreignKeyName: ${JSON.stringify(r.name)}`,
          `columns: [${r.columns.map((c) => JSON.stringify(c)).join(', ')}]`,
          `isOneToOne: ${r.one_to_one}`,
          `referencedRelation: ${JSON.stringify(r.ref)}`,
          `referencedColumns: [${r.ref_columns.map((c) => JSON.stringify(c)).join(', ')}]`,
        ]),
      );
  const relList = (table: string) => {
    const rels = relEntries(table);
    return rels.length ? `[\n${indent(rels.join(',\n'), 2)},\n]` : '[]';
  };

  const tables: string[] = [];
  const views: string[] = [];
  for (const [table, cols] of byTable) {
    const kind = cols[0].kind;
    if (kind === 'r' || kind === 'p') {
      const insert = cols.map((c) => {
        if (c.generated === 's' || c.identity === 'a') return `${key(c.name)}?: never`;
        const optional = c.nullable || c.has_default || c.identity === 'd';
        return `${key(c.name)}${optional ? '?' : ''}: ${colType(c)}${c.nullable ? ' | null' : ''}`;
      });
      const update = cols.map((c) =>
        c.generated === 's' || c.identity === 'a'
          ? `${key(c.name)}?: never`
          : `${key(c.name)}?: ${colType(c)}${c.nullable ? ' | null' : ''}`,
      );
      tables.push(
        `${key(table)}: ${obj([`Row: ${obj(rowEntries(cols))}`, `Insert: ${obj(insert)}`, `Update: ${obj(update)}`, `Relationships: ${relList(table)}`])}`,
      );
    } else {
      views.push(`${key(table)}: ${obj([`Row: ${obj(rowEntries(cols, true))}`, `Relationships: ${relList(table)}`])}`);
    }
  }

  const fnGroups = new Map<string, string[]>();
  for (const f of functions) {
    const modes = f.arg_modes ?? f.arg_types.map(() => 'i');
    const names = f.arg_names ?? [];
    const ins: string[] = [];
    const outs: string[] = [];
    let inIndex = 0;
    f.arg_types.forEach((t, i) => {
      const type = tsType(t.type, t.schema, t.kind, t.elem, t.elem_schema, t.elem_kind);
      const name = names[i] || `arg${i}`;
      if (modes[i] === 'i' || modes[i] === 'b' || modes[i] === 'v') {
        const optional = inIndex >= f.nargs - f.ndefaults;
        ins.push(`${key(name)}${optional ? '?' : ''}: ${type}`);
        inIndex++;
      }
      if (modes[i] === 'o' || modes[i] === 'b' || modes[i] === 't') outs.push(`${key(name)}: ${type}`);
    });
    let returns: string;
    if (outs.length > 0 && (f.retset || f.ret === 'record')) returns = obj(outs) + (f.retset ? '[]' : '');
    else if (f.ret_relation) {
      const cols = byTable.get(f.ret_relation) ?? [];
      returns = obj(rowEntries(cols)) + (f.retset ? '[]' : '');
    } else returns = tsType(f.ret, f.ret_schema, f.ret_kind, f.ret_elem, f.ret_elem_schema, f.ret_elem_kind) + (f.retset ? '[]' : '');
    const entry = obj([`Args: ${ins.length ? obj(ins) : 'never'}`, `Returns: ${returns}`]);
    fnGroups.set(f.name, [...(fnGroups.get(f.name) ?? []), entry]);
  }
  const fns = [...fnGroups].map(([name, entries]) =>
    entries.length === 1 ? `${key(name)}: ${entries[0]}` : `${key(name)}:\n${indent(entries.map((e) => `| ${e}`).join('\n'), 2)}`,
  );

  const enumEntries = enums.map((e) => `${key(e.name)}: ${e.labels.map((l) => JSON.stringify(l)).join(' | ')}`);
  const constants = enums.map((e) => `${key(e.name)}: [${e.labels.map((l) => JSON.stringify(l)).join(', ')}]`);

  return `// Generated by \`npm run db:types\` (scripts/db-types.ts) from the migrations in supabase/migrations.
// Do not edit by hand: tests/db/types.test.ts fails when this file is stale.

export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  ${SCHEMA}: {
    Tables: ${indent(obj(tables), 4).trimStart()}
    Views: ${indent(obj(views), 4).trimStart()}
    Functions: ${indent(obj(fns), 4).trimStart()}
    Enums: ${indent(obj(enumEntries), 4).trimStart()}
    CompositeTypes: {
      [_ in never]: never
    }
  }
}

type PublicSchema = Database["${SCHEMA}"]

export type Tables<T extends keyof (PublicSchema["Tables"] & PublicSchema["Views"])> =
  (PublicSchema["Tables"] & PublicSchema["Views"])[T] extends { Row: infer R } ? R : never

export type TablesInsert<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Insert"]

export type TablesUpdate<T extends keyof PublicSchema["Tables"]> = PublicSchema["Tables"][T]["Update"]

export type Enums<T extends keyof PublicSchema["Enums"]> = PublicSchema["Enums"][T]

export const Constants = {
  ${SCHEMA}: {
    Enums: {
${constants.map((c) => `      ${c},`).join('\n')}
    },
  },
} as const
`;
}

/** Types of a database freshly migrated from supabase/migrations (PGlite, in memory). */
export async function generateFromMigrations(loadDataDir?: Blob): Promise<string> {
  const { openPglite } = await import('../supabase/local/src/db/pglite.ts');
  const { bootstrapPlatform } = await import('../supabase/local/src/bootstrap/index.ts');
  const { migrate } = await import('../supabase/local/src/migrate.ts');
  const db = await openPglite({ loadDataDir });
  try {
    if (!loadDataDir) {
      await bootstrapPlatform(db);
      await migrate(db, resolve(import.meta.dirname, '../supabase'), { seed: false });
    }
    return await generateTypes(db);
  } finally {
    await db.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const text = await generateFromMigrations();
  if (process.argv.includes('--check')) {
    const current = readFileSync(TYPES_PATH, 'utf8');
    if (current !== text) {
      console.error(`${TYPES_PATH} is stale: run \`npm run db:types\`.`);
      process.exit(1);
    }
    console.log('database.types.ts is up to date.');
  } else {
    writeFileSync(TYPES_PATH, text);
    console.log(`Wrote ${TYPES_PATH}`);
  }
}
