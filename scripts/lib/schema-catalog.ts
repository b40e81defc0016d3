/**
 * What a database's schema is, as comparable text: one sorted list of lines per kind of object,
 * read from the catalog (not from any SQL file). Used by tests/db/schema-agreement.test.ts to
 * prove that supabase/migrations and supabase/schemas build the same database, and by
 * `npm run db:diff` to say whether a generated migration closes the gap.
 *
 * Every schema except Postgres' own is read, so the platform's objects (auth, storage, …) are
 * compared too: the migrations add triggers on auth.users and policies on storage.objects.
 * OIDs never appear; ACLs are exploded and sorted, so the order of GRANTs does not matter.
 */
import type { Queryable } from '../../supabase/local/src/db/types.ts';

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

/** A sorted, readable ACL: grantee=privileges/grantor, one entry per grantee and grantor. */
const acl = (column: string, kind: string, owner: string) => `(
  select coalesce(string_agg(e, ' ' order by e), '') from (
    select coalesce(nullif(a.grantee::regrole::text, '-'), 'public') || '=' ||
           string_agg(a.privilege_type || case when a.is_grantable then '*' else '' end, ',' order by a.privilege_type) ||
           '/' || a.grantor::regrole::text as e
      from aclexplode(coalesce(${column}, acldefault(${kind}, ${owner}))) a
     group by a.grantee, a.grantor) acl)`;

const description = (objoid: string, classoid: string, subid = '0') =>
  `coalesce((select d.description from pg_description d where d.objoid = ${objoid} and d.classoid = '${classoid}'::regclass and d.objsubid = ${subid}), '')`;

/** Kind of object -> a query whose single text column `line` describes one object. */
export const CATALOG_QUERIES: Record<string, string> = {
  schemas: `
    select n.nspname || ' owner=' || n.nspowner::regrole || ' acl=' || ${acl('n.nspacl', `'n'`, 'n.nspowner')} ||
           ' comment=' || ${description('n.oid', 'pg_namespace')} as line
      from pg_namespace n where ${USER_SCHEMAS}`,
  extensions: `
    select e.extname || ' schema=' || e.extnamespace::regnamespace || ' version=' || e.extversion as line from pg_extension e`,
  types: `
    select format_type(t.oid, null) || ' ' || t.typtype::text || ' owner=' || t.typowner::regrole ||
           coalesce(' labels=' || (select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '') ||
           ' comment=' || ${description('t.oid', 'pg_type')} as line
      from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where ${USER_SCHEMAS} and t.typtype in ('e', 'd', 'r', 'm')
        or (${USER_SCHEMAS} and t.typtype = 'c' and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')`,
  relations: `
    select c.oid::regclass::text || ' kind=' || c.relkind::text || ' owner=' || c.relowner::regrole ||
           ' rls=' || c.relrowsecurity || ' force=' || c.relforcerowsecurity ||
           ' options=' || coalesce(array_to_string(c.reloptions, ','), '') ||
           ' acl=' || ${acl('c.relacl', `(case when c.relkind = 'S' then 's' else 'r' end)::"char"`, 'c.relowner')} ||
           ' comment=' || ${description('c.oid', 'pg_class')} as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${USER_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')`,
  columns: `
    select c.oid::regclass::text || '.' || a.attname || ' #' || a.attnum || ' ' || format_type(a.atttypid, a.atttypmod) ||
           case when a.attnotnull then ' not null' else '' end ||
           coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') ||
           case when a.attidentity <> '' then ' identity=' || a.attidentity::text else '' end ||
           case when a.attgenerated <> '' then ' generated=' || a.attgenerated::text else '' end ||
           case when a.attcollation <> 0 and a.attcollation <> t.typcollation then ' collate ' || a.attcollation::regcollation else '' end ||
           case when a.attacl is not null then ' acl=' || (
             select string_agg(e, ' ' order by e) from (
               select coalesce(nullif(x.grantee::regrole::text, '-'), 'public') || '=' || string_agg(x.privilege_type, ',' order by x.privilege_type) || '/' || x.grantor::regrole as e
                 from aclexplode(a.attacl) x group by x.grantee, x.grantor) y) else '' end ||
           ' comment=' || ${description('c.oid', 'pg_class', 'a.attnum')} as line
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_type t on t.oid = a.atttypid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where ${USER_SCHEMAS} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and a.attnum > 0 and not a.attisdropped`,
  constraints: `
    select coalesce(nullif(co.conrelid, 0)::regclass::text, format_type(co.contypid, null)) || ' ' || co.conname || ' ' ||
           co.contype::text || ' ' || pg_get_constraintdef(co.oid) ||
           case when co.condeferrable then ' deferrable' else '' end || case when co.condeferred then ' deferred' else '' end ||
           case when not co.convalidated then ' not valid' else '' end ||
           ' comment=' || ${description('co.oid', 'pg_constraint')} as line
      from pg_constraint co join pg_namespace n on n.oid = co.connamespace
     where ${USER_SCHEMAS}`,
  indexes: `
    select pg_get_indexdef(i.indexrelid) || ' comment=' || ${description('i.indexrelid', 'pg_class')} as line
      from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
     where ${USER_SCHEMAS}`,
  views: `
    select c.oid::regclass::text || ' as ' || pg_get_viewdef(c.oid) as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${USER_SCHEMAS} and c.relkind in ('v', 'm')`,
  policies: `
    select p.schemaname || '.' || p.tablename || ' "' || p.policyname || '" ' || p.permissive || ' ' || p.cmd ||
           ' to ' || array_to_string(p.roles, ',') ||
           ' using (' || coalesce(p.qual, '') || ') check (' || coalesce(p.with_check, '') || ')' ||
           ' comment=' || ${description("(select po.oid from pg_policy po where po.polname = p.policyname and po.polrelid = (quote_ident(p.schemaname) || '.' || quote_ident(p.tablename))::regclass)", 'pg_policy')} as line
      from pg_policies p`,
  functions: `
    select pg_get_functiondef(p.oid) || E'\\nowner=' || p.proowner::regrole || ' acl=' || ${acl('p.proacl', `'f'`, 'p.proowner')} ||
           ' comment=' || ${description('p.oid', 'pg_proc')} as line
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where ${USER_SCHEMAS} and p.prokind in ('f', 'p', 'w')`,
  aggregates: `
    select p.oid::regprocedure::text as line
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_SCHEMAS} and p.prokind = 'a'`,
  triggers: `
    select pg_get_triggerdef(t.oid) || case when t.tgenabled <> 'O' then ' enabled=' || t.tgenabled::text else '' end ||
           ' comment=' || ${description('t.oid', 'pg_trigger')} as line
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where ${USER_SCHEMAS} and not t.tgisinternal`,
  event_triggers: `select e.evtname || ' ' || e.evtevent || ' ' || e.evtfoid::regprocedure as line from pg_event_trigger e`,
  sequences: `
    select s.seqrelid::regclass::text || ' ' || format_type(s.seqtypid, null) || ' start=' || s.seqstart || ' inc=' || s.seqincrement ||
           ' min=' || s.seqmin || ' max=' || s.seqmax || ' cache=' || s.seqcache || ' cycle=' || s.seqcycle ||
           coalesce(' owned_by=' || (select d.refobjid::regclass || '.' || a.attname from pg_depend d
             join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
             where d.classid = 'pg_class'::regclass and d.objid = s.seqrelid and d.deptype in ('a', 'i') limit 1), '') as line
      from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace where ${USER_SCHEMAS}`,
  default_privileges: `
    select d.defaclrole::regrole || ' in ' || coalesce(d.defaclnamespace::regnamespace::text, '*') || ' ' || d.defaclobjtype::text || ' ' ||
           array_to_string(array(select unnest(d.defaclacl)::text order by 1), ' ') as line
      from pg_default_acl d`,
  publications: `
    select p.pubname || ' all=' || p.puballtables || ' ins=' || p.pubinsert || ' upd=' || p.pubupdate || ' del=' || p.pubdelete ||
           ' trunc=' || p.pubtruncate || ' tables=' || coalesce((
             select string_agg(t.schemaname || '.' || t.tablename || '(' || array_to_string(t.attnames, ',') || ')' ||
                               coalesce(' where ' || t.rowfilter, ''), ' ' order by t.schemaname, t.tablename)
               from pg_publication_tables t where t.pubname = p.pubname), '') as line
      from pg_publication p`,
  roles: `
    select r.rolname || ' super=' || r.rolsuper || ' login=' || r.rolcanlogin || ' bypassrls=' || r.rolbypassrls ||
           ' config=' || coalesce(array_to_string(r.rolconfig, ','), '') ||
           ' member_of=' || coalesce((select string_agg(g.rolname, ',' order by g.rolname) from pg_auth_members m join pg_roles g on g.oid = m.roleid where m.member = r.oid), '') as line
      from pg_roles r where r.rolname not like 'pg\\_%'`,
};

/**
 * Rows that the schema files declare along with the DDL (the diff tool does not see data:
 * a change to these needs a hand-written migration, and the agreement test compares them).
 */
export const CATALOG_DATA: Record<string, string> = {
  'storage.buckets': `select row_to_json(b)::text as line from (select id, name, public, file_size_limit, allowed_mime_types, owner from storage.buckets) b`,
  'private.app_settings': `select row_to_json(s)::text as line from private.app_settings s`,
  'public.harbour_settings': `select (to_jsonb(h) - 'updated_at' - 'updated_by')::text as line from public.harbour_settings h`,
  'public.extras': `select (to_jsonb(e) - 'id' - 'created_at' - 'updated_at')::text as line from public.extras e`,
  'cron.job': `select row_to_json(j)::text as line from (select jobname, schedule, command from cron.job) j`,
};

export type CatalogSnapshot = Record<string, string[]>;

/** The catalog as sorted lines per kind (and the declared data rows where their table exists). */
export async function catalogSnapshot(db: Queryable): Promise<CatalogSnapshot> {
  const snapshot: CatalogSnapshot = {};
  for (const [kind, sql] of Object.entries(CATALOG_QUERIES)) {
    const { rows } = await db.query<{ line: string }>(sql);
    snapshot[kind] = rows.map((r) => r.line).sort();
  }
  for (const [table, sql] of Object.entries(CATALOG_DATA)) {
    const { rows: exists } = await db.query<{ ok: boolean }>(`select to_regclass($1) is not null as ok`, [table]);
    if (!exists[0].ok) continue;
    const { rows } = await db.query<{ line: string }>(sql);
    snapshot[`data ${table}`] = rows.map((r) => r.line).sort();
  }
  return snapshot;
}

/** Lines only in `a` (-) or only in `b` (+), per kind; empty when the two agree. */
export function diffSnapshots(a: CatalogSnapshot, b: CatalogSnapshot): string[] {
  const out: string[] = [];
  for (const kind of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const left = new Set(a[kind] ?? []);
    const right = new Set(b[kind] ?? []);
    for (const line of a[kind] ?? []) if (!right.has(line)) out.push(`${kind} - ${line}`);
    for (const line of b[kind] ?? []) if (!left.has(line)) out.push(`${kind} + ${line}`);
  }
  return out;
}
