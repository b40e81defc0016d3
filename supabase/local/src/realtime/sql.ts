/**
 * The database side of the local realtime service, created by the service at start as the
 * bootstrap superuser (idempotent; not part of the platform bootstrap). Everything lives in the
 * non-exposed schema _supabase_local:
 *
 * - `realtime_capture()`: the row trigger the stack puts on every table of the
 *   supabase_realtime publication. It NOTIFYs the change (new and old row as jsonb). A change
 *   whose payload would not fit a NOTIFY (8000 bytes) is parked in `realtime_overflow` and
 *   only its id is notified, so large rows still arrive with the values they had at commit.
 * - `realtime_sync_triggers()`: puts the trigger on publication tables that lack it and takes
 *   it off tables that left the publication.
 * - `realtime_check(...)`: one call per change: table facts (RLS on?, primary key, replica
 *   identity, the columns each role may select), the result of every distinct filter set, and
 *   for every distinct subscriber claim set whether that role with those claims may select the
 *   row (RLS decides). Modelled on Supabase Realtime's walrus `apply_rls`.
 * - `realtime_subscribe_check(...)`: validates one postgres_changes subscription as Realtime's
 *   subscription insert does (publication tables matched, filter columns and values).
 * - `realtime_authorize(...)`: a private channel's read or write check against the policies on
 *   realtime.messages (see authorization.ts); the caller runs it in a rolled-back transaction.
 */
export const CHANNEL = '_supabase_local_realtime';
export const TRIGGER = '_supabase_local_realtime';

export const SETUP_SQL = /* sql */ `
create schema if not exists _supabase_local;
revoke all on schema _supabase_local from public;

create sequence if not exists _supabase_local.realtime_seq;

create table if not exists _supabase_local.realtime_overflow (
  id bigint generated always as identity primary key,
  payload jsonb not null,
  created_at timestamptz not null default now()
);

create or replace function _supabase_local.realtime_capture() returns trigger
language plpgsql security definer set search_path = '' as $fn$
declare
  body text;
  parked bigint;
begin
  body := jsonb_build_object(
    's', tg_table_schema,
    't', tg_table_name,
    'o', tg_op,
    'n', nextval('_supabase_local.realtime_seq'),
    'ts', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'r', case when tg_op <> 'DELETE' then to_jsonb(new) end,
    'x', case when tg_op <> 'INSERT' then to_jsonb(old) end
  )::text;
  if octet_length(body) > 7900 then
    insert into _supabase_local.realtime_overflow (payload) values (body::jsonb) returning id into parked;
    body := jsonb_build_object('q', parked)::text;
  end if;
  perform pg_notify('${CHANNEL}', body);
  return null;
end
$fn$;

create or replace function _supabase_local.realtime_sync_triggers() returns integer
language plpgsql set search_path = '' as $fn$
declare
  rel regclass;
  added integer := 0;
begin
  for rel in
    select c.oid::regclass
      from pg_catalog.pg_publication_tables p
      join pg_catalog.pg_namespace n on n.nspname = p.schemaname
      join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
     where p.pubname = 'supabase_realtime'
       and c.relkind in ('r', 'p')
       and not exists (select 1 from pg_catalog.pg_trigger g where g.tgrelid = c.oid and g.tgname = '${TRIGGER}')
  loop
    begin
      execute format('create trigger ${TRIGGER} after insert or update or delete on %s for each row execute function _supabase_local.realtime_capture()', rel);
      added := added + 1;
    exception when duplicate_object then
      null; -- another session installed it meanwhile
    end;
  end loop;
  for rel in
    select g.tgrelid::regclass
      from pg_catalog.pg_trigger g
     where g.tgname = '${TRIGGER}'
       and not exists (
         select 1 from pg_catalog.pg_publication_tables p
          join pg_catalog.pg_namespace n on n.nspname = p.schemaname
          join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = p.tablename
          where p.pubname = 'supabase_realtime' and c.oid = g.tgrelid)
  loop
    execute format('drop trigger if exists ${TRIGGER} on %s', rel);
  end loop;
  return added;
end
$fn$;

-- One filter: column value (as text) <op> filter value, both read as the column's type.
create or replace function _supabase_local.realtime_op(op text, typ regtype, val text, arg text, negate boolean)
returns boolean language plpgsql stable set search_path = '' as $fn$
declare
  sym text;
  res boolean;
begin
  if op = 'isdistinct' then
    execute format('select %L::%s is %s distinct from %L::%s', val, typ, case when negate then 'not' else '' end, arg, typ) into res;
    return res;
  end if;
  if op = 'is' then
    if arg not in ('null', 'true', 'false', 'unknown') then
      raise exception 'invalid value for is filter: must be null, true, false, or unknown';
    end if;
    execute format('select %L::%s is %s %s', val, typ, case when negate then 'not' else '' end, arg) into res;
    return res;
  end if;
  sym := case op
    when 'eq' then '=' when 'neq' then '<>' when 'lt' then '<' when 'lte' then '<='
    when 'gt' then '>' when 'gte' then '>=' when 'in' then '= any'
    when 'like' then 'like' when 'ilike' then 'ilike' when 'match' then '~' when 'imatch' then '~*'
  end;
  if sym is null then
    raise exception 'unsupported equality operator: %', op;
  end if;
  execute format('select %L::%s %s (%L::%s)', val, typ, sym, arg,
                 case when op = 'in' then typ::text || '[]' else typ::text end) into res;
  return case when negate then not res else res end;
end
$fn$;

drop function if exists _supabase_local.realtime_check(regclass, text, jsonb, jsonb, jsonb, jsonb);
-- change: the captured change as the trigger built it (r = new row, x = old row), passed
-- through unparsed so no value loses precision on the way.
create or replace function _supabase_local.realtime_check(
  entity regclass, action text, change jsonb, filter_sets jsonb, claim_sets jsonb)
returns jsonb language plpgsql volatile set search_path = '' as $fn$
declare
  rec jsonb := change -> 'r';
  old jsonb := change -> 'x';
  rls boolean;
  replident "char";
  pk text[];
  ident text[];
  cols jsonb := '{}';
  pk_ok jsonb := '{}';
  role_name text;
  filter_ok jsonb := '[]';
  visible jsonb := '[]';
  fset jsonb;
  f jsonb;
  ok boolean;
  res boolean;
  src jsonb;
  typ regtype;
  cs jsonb;
  stmt_name text;
  exec_sql text;
begin
  select c.relrowsecurity, c.relreplident into rls, replident from pg_catalog.pg_class c where c.oid = entity;
  pk := array(
    select a.attname::text from pg_catalog.pg_index x
      join pg_catalog.pg_attribute a on a.attrelid = x.indrelid and a.attnum = any(x.indkey)
     where x.indrelid = entity and x.indisprimary order by a.attnum);
  ident := case replident
    when 'f' then array(select a.attname::text from pg_catalog.pg_attribute a
                         where a.attrelid = entity and a.attnum > 0 and not a.attisdropped order by a.attnum)
    when 'n' then '{}'::text[]
    when 'i' then array(select a.attname::text from pg_catalog.pg_index x
                          join pg_catalog.pg_attribute a on a.attrelid = x.indrelid and a.attnum = any(x.indkey)
                         where x.indrelid = entity and x.indisreplident order by a.attnum)
    else pk
  end;

  for role_name in select distinct value ->> 'role' from jsonb_array_elements(claim_sets) loop
    cols := cols || jsonb_build_object(role_name, (
      select coalesce(jsonb_agg(jsonb_build_object('name', a.attname, 'type', t.typname) order by a.attnum), '[]')
        from pg_catalog.pg_attribute a join pg_catalog.pg_type t on t.oid = a.atttypid
       where a.attrelid = entity and a.attnum > 0 and not a.attisdropped
         and pg_catalog.has_column_privilege(role_name, entity, a.attnum, 'SELECT')));
    pk_ok := pk_ok || jsonb_build_object(role_name, coalesce((
      select bool_and(pg_catalog.has_column_privilege(role_name, entity, p, 'SELECT')) from unnest(pk) p), true));
  end loop;

  -- Filters see the new row; a DELETE's filters see the old row's replica identity columns.
  src := case when action = 'DELETE'
    then coalesce((select jsonb_object_agg(k, v) from jsonb_each(old) e(k, v) where k = any(ident)), '{}')
    else rec end;
  for fset in select value from jsonb_array_elements(filter_sets) loop
    ok := true;
    for f in select value from jsonb_array_elements(fset) loop
      if src is null or not (src ? (f ->> 0)) then
        ok := false;
        exit;
      end if;
      select a.atttypid::regtype into typ from pg_catalog.pg_attribute a
       where a.attrelid = entity and a.attname = (f ->> 0) and not a.attisdropped;
      begin
        res := _supabase_local.realtime_op(f ->> 1, typ, src ->> (f ->> 0), f ->> 2, coalesce((f ->> 3)::boolean, false));
      exception when others then
        res := false;
      end;
      if res is not true then
        ok := false;
        exit;
      end if;
    end loop;
    filter_ok := filter_ok || to_jsonb(ok);
  end loop;

  -- RLS: may this role, with these claims, select the row (looked up by primary key)? One
  -- prepared statement per table (kept by the session, its generic plan reused while the role
  -- stays the same), executed once per claim set inside one subtransaction; on an error,
  -- again one by one.
  if rls and action <> 'DELETE' and cardinality(pk) > 0 and jsonb_array_length(claim_sets) > 0 then
    stmt_name := format('_supabase_local_rt_%s_%s', entity::oid, left(md5(array_to_string(pk, ',')), 8));
    if not exists (select 1 from pg_catalog.pg_prepared_statements where name = stmt_name) then
      execute format('prepare %I(jsonb) as select exists (select 1 from %s t where (%s) = (select %s from jsonb_populate_record(null::%s, $1) r))',
        stmt_name, entity,
        (select string_agg(format('t.%I', p), ', ') from unnest(pk) p),
        (select string_agg(format('r.%I', p), ', ') from unnest(pk) p),
        entity);
    end if;
    exec_sql := format('execute %I(%L::jsonb)', stmt_name, rec);
    perform pg_catalog.set_config('plan_cache_mode', 'force_generic_plan', true);
    begin
      for cs in select value from jsonb_array_elements(claim_sets) loop
        perform pg_catalog.set_config('role', cs ->> 'role', true),
                pg_catalog.set_config('request.jwt.claims', (cs -> 'claims')::text, true);
        execute exec_sql into res;
        visible := visible || to_jsonb(coalesce(res, false));
      end loop;
      perform pg_catalog.set_config('role', 'none', true), pg_catalog.set_config('request.jwt.claims', '', true);
    exception when others then
      visible := '[]';
      for cs in select value from jsonb_array_elements(claim_sets) loop
        begin
          perform pg_catalog.set_config('role', cs ->> 'role', true),
                  pg_catalog.set_config('request.jwt.claims', (cs -> 'claims')::text, true);
          execute exec_sql into res;
          perform pg_catalog.set_config('role', 'none', true), pg_catalog.set_config('request.jwt.claims', '', true);
        exception when others then
          res := false;
        end;
        visible := visible || to_jsonb(coalesce(res, false));
      end loop;
    end;
    perform pg_catalog.set_config('plan_cache_mode', 'auto', true);
  end if;

  return jsonb_build_object('rls', rls, 'pk', to_jsonb(pk), 'ident', to_jsonb(ident), 'cols', cols,
                            'pk_ok', pk_ok, 'f', filter_ok, 'v', visible);
end
$fn$;

-- Validates one subscription as Realtime's subscription insert does; returns the matching
-- publication tables, or the error text.
create or replace function _supabase_local.realtime_subscribe_check(
  role_name text, schema_pattern text, table_pattern text, filters jsonb)
returns jsonb language plpgsql volatile set search_path = '' as $fn$
declare
  entities text[];
  matched jsonb;
  rel regclass;
  f jsonb;
  typ regtype;
  arr jsonb;
begin
  select array_agg(format('%I.%I', p.schemaname, p.tablename)), jsonb_agg(jsonb_build_array(p.schemaname, p.tablename))
    into entities, matched
    from pg_catalog.pg_publication_tables p
   where p.pubname = 'supabase_realtime'
     and p.schemaname like (case schema_pattern when '*' then '%' else schema_pattern end) escape ''
     and p.tablename like (case table_pattern when '*' then '%' else table_pattern end) escape '';
  if entities is null then
    return jsonb_build_object('error', 'not_enabled');
  end if;
  begin
    foreach rel in array entities::regclass[] loop
      for f in select value from jsonb_array_elements(filters) loop
        select a.atttypid::regtype into typ from pg_catalog.pg_attribute a
         where a.attrelid = rel and a.attname = (f ->> 0) and a.attnum > 0 and not a.attisdropped
           and pg_catalog.has_column_privilege(role_name, rel, a.attnum, 'SELECT');
        if typ is null then
          raise exception 'invalid column for filter %', f ->> 0;
        end if;
        if f ->> 1 = 'in' then
          execute format('select to_jsonb(%L::%s[])', f ->> 2, typ) into arr;
          if coalesce(jsonb_array_length(arr), 0) > 100 then
            raise exception 'too many values for \`in\` filter. Maximum 100';
          end if;
        elsif f ->> 1 = 'is' then
          if f ->> 2 not in ('null', 'true', 'false', 'unknown') then
            raise exception 'invalid value for is filter: must be null, true, false, or unknown';
          end if;
          if f ->> 2 <> 'null' and typ <> 'boolean'::regtype then
            raise exception 'is % filter requires a boolean column, got %', f ->> 2, typ;
          end if;
        elsif f ->> 1 in ('like', 'ilike', 'match', 'imatch') then
          if not exists (select 1 from pg_catalog.pg_operator o
                          where o.oprname = case f ->> 1 when 'like' then '~~' when 'ilike' then '~~*'
                                                          when 'match' then '~' else '~*' end
                            and o.oprleft = typ) then
            raise exception 'operator % requires a text-compatible column type, got %', f ->> 1, typ;
          end if;
          if f ->> 1 in ('match', 'imatch') then
            perform '' ~ (f ->> 2);
          end if;
        else
          execute format('select %L::%s', f ->> 2, typ);
        end if;
        typ := null;
      end loop;
    end loop;
  exception when others then
    return jsonb_build_object('error', 'exception', 'code', sqlstate, 'message', sqlerrm);
  end;
  perform _supabase_local.realtime_sync_triggers();
  return jsonb_build_object('entities', matched);
end
$fn$;

-- Private channels (Realtime's Authorization): as the caller (role, claims, headers, and the
-- topic for realtime.topic()), which extensions may it read (mode 'read': probe rows inserted by
-- the service's own connection role, as Realtime's admin connection does, then selected as the caller) or write (mode 'write': one insert per
-- extension as the caller, in a subtransaction; insufficient_privilege is a no). Runs inside a
-- transaction the caller rolls back; other errors (a failing policy) propagate.
create or replace function _supabase_local.realtime_authorize(
  topic_name text, role_name text, claims jsonb, headers jsonb, extensions text[], mode text)
returns jsonb language plpgsql volatile set search_path = '' as $fn$
declare
  ids uuid[];
  seen uuid[];
  result jsonb := '{}';
  i integer;
begin
  if mode = 'read' then
    ids := array(select gen_random_uuid() from unnest(extensions));
    insert into realtime.messages (id, topic, extension, updated_at, inserted_at)
      select u.id, topic_name, u.ext, now() at time zone 'utc', now() at time zone 'utc'
        from unnest(ids, extensions) as u(id, ext);
  end if;
  perform pg_catalog.set_config('role', role_name, true),
          pg_catalog.set_config('realtime.topic', topic_name, true),
          pg_catalog.set_config('request.jwt.claims', claims::text, true),
          pg_catalog.set_config('request.jwt.claim.sub', coalesce(claims ->> 'sub', ''), true),
          pg_catalog.set_config('request.jwt.claim.role', role_name, true),
          pg_catalog.set_config('request.headers', headers::text, true);
  if mode = 'read' then
    seen := array(select m.id from realtime.messages m where m.id = any(ids));
    for i in 1 .. coalesce(cardinality(extensions), 0) loop
      result := result || jsonb_build_object(extensions[i], ids[i] = any(seen));
    end loop;
  else
    for i in 1 .. coalesce(cardinality(extensions), 0) loop
      begin
        insert into realtime.messages (topic, extension, payload, event, private, updated_at, inserted_at)
          values (topic_name, extensions[i], null, null, null, now() at time zone 'utc', now() at time zone 'utc');
        result := result || jsonb_build_object(extensions[i], true);
      exception when insufficient_privilege then
        result := result || jsonb_build_object(extensions[i], false);
      end;
    end loop;
  end if;
  return result;
end
$fn$;

revoke all on function _supabase_local.realtime_capture() from public;
revoke all on function _supabase_local.realtime_sync_triggers() from public;
revoke all on function _supabase_local.realtime_op(text, regtype, text, text, boolean) from public;
revoke all on function _supabase_local.realtime_check(regclass, text, jsonb, jsonb, jsonb) from public;
revoke all on function _supabase_local.realtime_subscribe_check(text, text, text, jsonb) from public;
revoke all on function _supabase_local.realtime_authorize(text, text, jsonb, jsonb, text[], text) from public;
`;
