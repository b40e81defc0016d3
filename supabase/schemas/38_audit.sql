-- The audit trail (issue 21, item 7; GoBD: Nachvollziehbarkeit, Unveränderbarkeit): who changed
-- which row of the bookkeeping and master data, when, and from what to what. Written only by the
-- database (one generic AFTER trigger per audited table), read only by admins, changed by nobody.
--
-- Attaching another table is one line (its key column first, then any personal columns whose
-- values must not be kept, see below):
--   create trigger <table>_audit after insert or update or delete on <schema>.<table>
--     for each row execute function private.audit_row('id');
-- A table created in a later file (harbour_settings, 45) gets its line beside its table.

create table public.audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null,
  table_name text not null check (char_length(table_name) <= 100),
  row_key text not null,
  action text not null check (action in ('insert', 'update', 'delete')),
  -- The signed-in person (auth.uid()); no foreign key, so the entry outlives the account.
  actor uuid,
  -- Who was acting when actor alone says too little: authenticated (a person's session), guest
  -- (an anonymous session), anon (no session), service_role (edge functions, the Stripe
  -- webhook), system (a direct database session: cron, the local scheduler, a migration).
  actor_role text not null check (actor_role in ('authenticated', 'guest', 'anon', 'service_role', 'system')),
  -- insert: the new row; delete: the old row; update: only the columns that changed, old and new.
  old_values jsonb,
  new_values jsonb,
  -- Personal columns that changed but whose values are not kept (GDPR, see docs/adr/0034-audit-trail.md).
  redacted text[],
  constraint audit_log_values check (
    case action
      when 'insert' then old_values is null and new_values is not null
      when 'delete' then old_values is not null and new_values is null
      else old_values is not null and new_values is not null
    end)
);

alter table public.audit_log enable row level security;

comment on table public.audit_log is 'The audit trail: one row per insert, update (changed columns only, old and new) or delete of an audited table, with the acting user and role; written by private.audit_row(), readable by admins, never changed (GoBD).';

create index audit_log_at_idx on public.audit_log (at desc, id desc);

create index audit_log_table_idx on public.audit_log (table_name, at desc);

create policy "audit_log: admins read" on public.audit_log
  for select to authenticated
  using ((select private.has_role('admin')));

revoke all on public.audit_log from anon;

revoke insert, update, delete, truncate, references, trigger on public.audit_log from authenticated, service_role;

create trigger audit_log_immutable before update or delete on public.audit_log
  for each row execute function private.refuse_change('audit_log_immutable', 'The audit trail is append-only: nobody updates, deletes or truncates it.');

create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function private.refuse_change('audit_log_immutable', 'The audit trail is append-only: nobody updates, deletes or truncates it.');

-- The one trigger function of every audited table. Arguments: the key column (or several,
-- comma-separated), then the personal columns whose values are left out (their names are kept
-- in redacted when they change). updated_at is bookkeeping, never a change of its own.
-- Cost: one to_jsonb per row image and one insert; no table is read.
create function private.audit_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_personal text[] := case when tg_nargs > 1 then tg_argv[1:tg_nargs - 1] else '{}'::text[] end;
  v_key_cols text := case when tg_nargs > 0 then tg_argv[0] else 'id' end;
  v_old jsonb;
  v_new jsonb;
  v_row jsonb;
  v_key text;
  v_claims jsonb := auth.jwt();
  -- The request's role (PostgREST puts it in the claims and SETs it; a security definer function
  -- keeps the session's role setting); none of them: a direct database session.
  v_role text := coalesce(nullif(v_claims ->> 'role', ''), nullif(current_setting('role', true), 'none'));
  v_old_changed jsonb;
  v_new_changed jsonb;
  v_redacted text[];
begin
  if tg_op <> 'INSERT' then
    v_old := to_jsonb(old);
  end if;
  if tg_op <> 'DELETE' then
    v_new := to_jsonb(new);
  end if;
  v_row := coalesce(v_new, v_old);
  v_key := case when strpos(v_key_cols, ',') = 0 then v_row ->> v_key_cols
                else (select string_agg(v_row ->> btrim(c), ',') from unnest(string_to_array(v_key_cols, ',')) c) end;

  if tg_op = 'UPDATE' then
    select jsonb_object_agg(n.key, v_old -> n.key) filter (where not n.key = any (v_personal)),
           jsonb_object_agg(n.key, n.value) filter (where not n.key = any (v_personal)),
           array_agg(n.key order by n.key) filter (where n.key = any (v_personal))
      into v_old_changed, v_new_changed, v_redacted
      from jsonb_each(v_new) n
     where n.key <> 'updated_at' and n.value is distinct from v_old -> n.key;
    if v_old_changed is null and v_redacted is null then
      return null; -- nothing but bookkeeping changed
    end if;
    v_old := coalesce(v_old_changed, '{}'::jsonb);
    v_new := coalesce(v_new_changed, '{}'::jsonb);
  else
    v_old := v_old - v_personal;
    v_new := v_new - v_personal;
  end if;

  insert into public.audit_log (at, table_name, row_key, action, actor, actor_role, old_values, new_values, redacted)
  values (
    private.now(),
    tg_table_schema || '.' || tg_table_name,
    coalesce(v_key, ''),
    lower(tg_op),
    (v_claims ->> 'sub')::uuid,
    case when v_role = 'authenticated' and coalesce((v_claims ->> 'is_anonymous')::boolean, false) then 'guest'
         when v_role in ('authenticated', 'anon', 'service_role') then v_role
         else 'system' end,
    v_old,
    v_new,
    v_redacted);
  return null;
end
$$;
comment on function private.audit_row() is 'AFTER trigger of every audited table: writes one audit_log row (insert: new row; delete: old row; update: changed columns only, without updated_at) with the caller (auth.jwt() sub, i.e. auth.uid()) and the acting role; arguments: key column(s), then personal columns whose values are left out.';
revoke execute on function private.audit_row() from public;

-- The audited tables. Personal columns (left out, see docs/adr/0034-audit-trail.md): a
-- person's contact and boat data, which GDPR lets the person have erased, unlike the books.
create trigger orders_audit after insert or update or delete on public.orders
  for each row execute function private.audit_row('id', 'email', 'person', 'boat');

create trigger payments_audit after insert or update or delete on public.payments
  for each row execute function private.audit_row('id');

create trigger invoices_audit after insert or update or delete on public.invoices
  for each row execute function private.audit_row('id');

create trigger places_audit after insert or update or delete on public.places
  for each row execute function private.audit_row('id');

create trigger sale_codes_audit after insert or update or delete on public.sale_codes
  for each row execute function private.audit_row('id');

create trigger fair_periods_audit after insert or update or delete on public.fair_periods
  for each row execute function private.audit_row('id');

create trigger long_term_holders_audit after insert or update or delete on public.long_term_holders
  for each row execute function private.audit_row('id', 'email', 'first_name', 'last_name', 'boat_name', 'boat_tag', 'note');

create trigger profiles_audit after insert or update or delete on public.profiles
  for each row execute function private.audit_row('id', 'email', 'first_name', 'last_name', 'company', 'phone', 'street',
                                                  'postal_code', 'city', 'country', 'boat_name', 'boat_tag', 'avatar_path');

create trigger user_roles_audit after insert or update or delete on public.user_roles
  for each row execute function private.audit_row('user_id');

create trigger app_settings_audit after insert or update or delete on private.app_settings
  for each row execute function private.audit_row('key');

-- Admins: a page of the trail, newest first. Security invoker: the table's policy (admins read)
-- decides; the check up front only turns "no rows" into a clear refusal for other staff.
create function public.admin_audit_log(
  p_table text default null,
  p_actor text default null,
  p_actor_role text default null,
  p_from date default null,
  p_to date default null,
  p_limit integer default 50,
  p_offset integer default 0
)
returns table (
  id bigint,
  at timestamptz,
  table_name text,
  row_key text,
  action text,
  actor uuid,
  actor_role text,
  actor_name text,
  actor_email text,
  old_values jsonb,
  new_values jsonb,
  redacted text[],
  total bigint
)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_actor text := nullif(btrim(coalesce(p_actor, '')), '');
  v_pattern text;
  v_from timestamptz;
  v_to timestamptz;
begin
  perform private.require_admin();
  if p_limit is null or p_limit < 1 or p_limit > 200 or p_offset is null or p_offset < 0 or p_offset > 1000000 then
    raise exception 'invalid_page' using errcode = '22023', hint = 'limit 1-200, offset >= 0';
  end if;
  if p_from is not null and p_to is not null and p_to < p_from then
    raise exception 'invalid_period' using errcode = '22023';
  end if;
  if p_actor_role is not null and p_actor_role not in ('person', 'guest', 'system') then
    raise exception 'invalid_actor_role' using errcode = '22023', hint = 'person, guest or system';
  end if;
  if v_actor is not null then
    v_pattern := '%' || replace(replace(replace(left(v_actor, 100), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  end if;
  -- Berlin days [p_from, p_to], both inclusive.
  v_from := case when p_from is not null then private.berlin_at(p_from, time '00:00') end;
  v_to := case when p_to is not null then private.berlin_at(p_to + 1, time '00:00') end;
  return query
  select a.id, a.at, a.table_name, a.row_key, a.action, a.actor, a.actor_role,
         nullif(concat_ws(' ', p.first_name, p.last_name), ''), p.email,
         a.old_values, a.new_values, a.redacted,
         count(*) over ()
  from public.audit_log a
  left join public.profiles p on p.id = a.actor
  where (p_table is null or a.table_name = p_table)
    and (v_from is null or a.at >= v_from)
    and (v_to is null or a.at < v_to)
    and (p_actor_role is null
         or (p_actor_role = 'person' and a.actor_role = 'authenticated')
         or (p_actor_role = 'guest' and a.actor_role in ('guest', 'anon'))
         or (p_actor_role = 'system' and a.actor_role in ('system', 'service_role')))
    and (v_pattern is null
         or p.email ilike v_pattern
         or concat_ws(' ', p.first_name, p.last_name) ilike v_pattern
         or a.actor::text = lower(v_actor))
  order by a.at desc, a.id desc
  limit p_limit offset p_offset;
end
$$;
comment on function public.admin_audit_log(text, text, text, date, date, integer, integer) is 'Admins: the audit trail newest first, filtered by table, actor (name, e-mail or id; or kind person/guest/system) and Berlin days [p_from, p_to]; one page with the actor''s name and e-mail and the total. Others get 42501 admin_only.';
revoke execute on function public.admin_audit_log(text, text, text, date, date, integer, integer) from anon, public;
grant execute on function public.admin_audit_log(text, text, text, date, date, integer, integer) to authenticated, service_role;

-- Staff: who did each step of an order's history (order_events.actor): a staff member's name,
-- the guest (the order's owner, an anonymous session, an account without staff rights), or the
-- system (no actor: the webhook, expiry, a trigger without a session).
create function private.order_event_actors(p_order_id uuid)
returns table (event_id bigint, actor_kind text, actor_name text)
language sql
stable
security definer
set search_path = ''
as $$
  select e.id,
         case when e.actor is null then 'system'
              when r.admin or r.harbor then 'staff'
              else 'guest' end,
         case when r.admin or r.harbor
              then coalesce(nullif(concat_ws(' ', p.first_name, p.last_name), ''), p.email) end
  from public.order_events e
  left join public.user_roles r on r.user_id = e.actor
  left join public.profiles p on p.id = e.actor
  where e.order_id = p_order_id and private.is_staff()
  order by e.id
$$;
comment on function private.order_event_actors(uuid) is 'The rule behind public.order_event_actors (security definer, not exposed by the API).';
revoke execute on function private.order_event_actors(uuid) from public;
grant execute on function private.order_event_actors(uuid) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/order_event_actors): runs as the caller, the rule above decides.
create function public.order_event_actors(p_order_id uuid)
returns table (event_id bigint, actor_kind text, actor_name text)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.order_event_actors(p_order_id)
$$;
comment on function public.order_event_actors(uuid) is 'Staff: per history event of an order, who did it: staff (with the name), guest or system. Others read nothing.';
revoke execute on function public.order_event_actors(uuid) from anon, public;
