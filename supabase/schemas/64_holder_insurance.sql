-- Long-term holders' insurance certificate and boat registration mark (issue 42 item 3, part I;
-- docs/adr/0050-holder-insurance.md). The Hafenordnung requires a third-party liability
-- insurance (Haftpflichtversicherung) for every boat in the harbour; the holder gives insurer,
-- policy number and "valid until" and uploads the certificate into a private bucket that only
-- the holder and the harbour staff read. A new certificate is a new row, old ones stay (history).
-- The registration mark (amtliches Kennzeichen) is long_term_holders.boat_tag (20_berths.sql),
-- which the holder may now set through public.set_registration_mark.

insert into private.app_settings (key, value) values
  ('insurance_reminder_days', '30')
on conflict (key) do nothing;

create table public.holder_insurance_certificates (
  id uuid primary key default gen_random_uuid(),
  holder_id uuid not null references public.long_term_holders (id) on delete cascade,
  insurer text not null check (char_length(insurer) between 1 and 100),
  policy_number text not null check (char_length(policy_number) between 1 and 60),
  valid_until date not null,
  file_path text not null unique check (char_length(file_path) <= 200),
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  reminded_at timestamptz
);

alter table public.holder_insurance_certificates enable row level security;

comment on table public.holder_insurance_certificates is 'A long-term holder''s liability insurance certificates (history: a new certificate is a new row); the file is in the private bucket insurance-certificates; reminded_at: the expiry reminder went out.';

create index holder_insurance_certificates_holder_idx on public.holder_insurance_certificates (holder_id, valid_until desc);

create index holder_insurance_certificates_created_by_idx on public.holder_insurance_certificates (created_by);

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
-- Writes only through public.add_insurance_certificate (security definer).
create policy "holder_insurance_certificates: holder reads own, staff all" on public.holder_insurance_certificates
  for select to authenticated
  using (
    (select private.is_staff())
    or exists (select 1 from public.long_term_holders h where h.id = holder_id and h.user_id = (select auth.uid())));

revoke insert, update, delete, truncate on public.holder_insurance_certificates from anon, authenticated;

-- The certificate files: private, 5 MB, PDF or a photo; one folder per holding
-- (<long_term_holders.id>/<file>). The holder uploads into the own holdings' folders and reads
-- them, staff read all; nobody changes or deletes a file through the API (the history stays).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('insurance-certificates', 'insurance-certificates', false, 5242880,
        array['application/pdf', 'image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- Whether the caller holds the holding whose id names the folder (current or coming).
create function private.is_own_holding_folder(p_folder text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.long_term_holders h
     where h.id::text = p_folder and h.user_id = (select auth.uid())
       and (h.ends_on is null or h.ends_on >= private.berlin_date(private.now())))
$$;
comment on function private.is_own_holding_folder(text) is 'The caller holds the current or coming holding whose id is the storage folder p_folder.';
revoke execute on function private.is_own_holding_folder(text) from public;
grant execute on function private.is_own_holding_folder(text) to authenticated, service_role;

-- Their policies are part of the one policy per operation on storage.objects (90_storage.sql):
-- the holder reads and uploads into the own holdings' folders, staff read all.
-- The caller's current or coming holding, else holding_not_found (also for someone else's).
create function private.own_holding(p_holder_id uuid)
returns public.long_term_holders
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_row public.long_term_holders;
begin
  if (select auth.uid()) is null then
    raise exception 'account_required' using errcode = '42501';
  end if;
  if not private.is_active_user() then
    raise exception 'account_inactive' using errcode = '42501';
  end if;
  select * into v_row from public.long_term_holders h
   where h.id = p_holder_id and h.user_id = (select auth.uid())
     and (h.ends_on is null or h.ends_on >= private.berlin_date(private.now()));
  if not found then
    raise exception 'holding_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.own_holding(uuid) is 'The caller''s current or coming holding (account_required, account_inactive, holding_not_found otherwise).';
revoke execute on function private.own_holding(uuid) from public;

create function private.add_insurance_certificate(p_holder_id uuid, p_insurer text, p_policy_number text, p_valid_until date, p_file_path text)
returns public.holder_insurance_certificates
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_holder public.long_term_holders := private.own_holding(p_holder_id);
  v_insurer text := btrim(coalesce(p_insurer, ''));
  v_policy text := btrim(coalesce(p_policy_number, ''));
  v_row public.holder_insurance_certificates;
begin
  if char_length(v_insurer) not between 1 and 100 then
    raise exception 'insurance_insurer_invalid' using errcode = '22023';
  end if;
  if char_length(v_policy) not between 1 and 60 then
    raise exception 'insurance_policy_invalid' using errcode = '22023';
  end if;
  if p_valid_until is null or p_valid_until <= private.berlin_date(private.now()) then
    raise exception 'insurance_valid_until_past' using errcode = '22023';
  end if;
  -- The file: one name inside the holding's folder, uploaded already (the storage policy let
  -- only this holder put it there), and not the file of another certificate.
  if p_file_path is null
     or p_file_path !~ ('^' || v_holder.id::text || '/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$')
     or not exists (select 1 from storage.objects o where o.bucket_id = 'insurance-certificates' and o.name = p_file_path)
     or exists (select 1 from public.holder_insurance_certificates c where c.file_path = p_file_path) then
    raise exception 'insurance_file_invalid' using errcode = '22023';
  end if;
  insert into public.holder_insurance_certificates (holder_id, insurer, policy_number, valid_until, file_path, created_by, created_at)
  values (v_holder.id, v_insurer, v_policy, p_valid_until, p_file_path, (select auth.uid()), private.now())
  returning * into v_row;
  return v_row;
end
$$;
comment on function private.add_insurance_certificate(uuid, text, text, date, text) is 'The rule behind public.add_insurance_certificate (security definer, not exposed by the API).';
revoke execute on function private.add_insurance_certificate(uuid, text, text, date, text) from public;
grant execute on function private.add_insurance_certificate(uuid, text, text, date, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/add_insurance_certificate): runs as the caller, the rule above decides.
create function public.add_insurance_certificate(p_holder_id uuid, p_insurer text, p_policy_number text, p_valid_until date, p_file_path text)
returns public.holder_insurance_certificates
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.add_insurance_certificate(p_holder_id, p_insurer, p_policy_number, p_valid_until, p_file_path)
$$;
comment on function public.add_insurance_certificate(uuid, text, text, date, text) is 'A holder records a new insurance certificate of the own current or coming holding (insurer 1-100 characters, policy number 1-60, valid until after today, the uploaded file in the holding''s folder); earlier ones stay.';
revoke execute on function public.add_insurance_certificate(uuid, text, text, date, text) from anon, public;
grant execute on function public.add_insurance_certificate(uuid, text, text, date, text) to authenticated, service_role;

create function private.set_registration_mark(p_holder_id uuid, p_mark text)
returns public.long_term_holders
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_holder public.long_term_holders := private.own_holding(p_holder_id);
  v_mark text := upper(regexp_replace(btrim(coalesce(p_mark, '')), '\s+', ' ', 'g'));
begin
  -- German marks look like "D-12345", "K-AB 123" or "WSA DU 1234"; letters, digits, space,
  -- dot, hyphen and slash, 2 to 30 characters.
  if char_length(v_mark) not between 2 and 30 or v_mark !~ '^[[:alnum:]][[:alnum:] ./-]*$' then
    raise exception 'registration_mark_invalid' using errcode = '22023';
  end if;
  update public.long_term_holders h set boat_tag = v_mark where h.id = v_holder.id returning * into v_holder;
  return v_holder;
end
$$;
comment on function private.set_registration_mark(uuid, text) is 'The rule behind public.set_registration_mark (security definer, not exposed by the API).';
revoke execute on function private.set_registration_mark(uuid, text) from public;
grant execute on function private.set_registration_mark(uuid, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/set_registration_mark): runs as the caller, the rule above decides.
create function public.set_registration_mark(p_holder_id uuid, p_mark text)
returns public.long_term_holders
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_registration_mark(p_holder_id, p_mark)
$$;
comment on function public.set_registration_mark(uuid, text) is 'A holder sets the boat''s registration mark (long_term_holders.boat_tag, 2-30 characters, upper case) of the own current or coming holding.';
revoke execute on function public.set_registration_mark(uuid, text) from anon, public;
grant execute on function public.set_registration_mark(uuid, text) to authenticated, service_role;

-- Staff: every current or coming holding without a certificate valid today or without a
-- registration mark.
create function private.holders_missing_insurance()
returns table (
  holder_id uuid, place_id uuid, place_name text, first_name text, last_name text, email text,
  boat_name text, boat_tag text, starts_on date, ends_on date, valid_until date,
  missing_certificate boolean, missing_mark boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_today date := private.berlin_date(private.now());
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    select h.id, h.place_id, p.name, h.first_name, h.last_name, coalesce(h.email, pr.email),
           h.boat_name, nullif(btrim(h.boat_tag), ''), h.starts_on, h.ends_on, c.valid_until,
           c.valid_until is null or c.valid_until < v_today,
           nullif(btrim(h.boat_tag), '') is null
      from public.long_term_holders h
      join public.places p on p.id = h.place_id
      left join public.profiles pr on pr.id = h.user_id
      left join lateral (select max(x.valid_until) as valid_until from public.holder_insurance_certificates x
                          where x.holder_id = h.id) c on true
     where (h.ends_on is null or h.ends_on >= v_today)
       and (c.valid_until is null or c.valid_until < v_today or nullif(btrim(h.boat_tag), '') is null)
     order by p.name, h.starts_on;
end
$$;
comment on function private.holders_missing_insurance() is 'The rule behind public.holders_missing_insurance (security definer, not exposed by the API).';
revoke execute on function private.holders_missing_insurance() from public;
grant execute on function private.holders_missing_insurance() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/holders_missing_insurance): runs as the caller, the rule above decides.
create function public.holders_missing_insurance()
returns table (
  holder_id uuid, place_id uuid, place_name text, first_name text, last_name text, email text,
  boat_name text, boat_tag text, starts_on date, ends_on date, valid_until date,
  missing_certificate boolean, missing_mark boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.holders_missing_insurance()
$$;
comment on function public.holders_missing_insurance() is 'Staff only: current and coming long-term holders without a certificate valid today (valid_until: the latest one''s end) or without a registration mark.';
revoke execute on function public.holders_missing_insurance() from anon, public;
grant execute on function public.holders_missing_insurance() to authenticated, service_role;

-- Scheduled daily (99_cron.sql): insurance_reminder_days (30) before a certificate expires its
-- holder is reminded once (reminded_at), in the account's language; not when a later
-- certificate is already there, not for an expired one, not after the holding has ended.
create function private.send_insurance_reminders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := private.now();
  v_today date := private.berlin_date(v_now);
  v_days integer := coalesce(nullif(private.setting('insurance_reminder_days'), '')::integer, 30);
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_row record;
  v_en boolean;
  v_count integer := 0;
begin
  for v_row in
    select c.id, c.insurer, c.policy_number, c.valid_until, p.name as place_name,
           coalesce(h.email, pr.email) as email, coalesce(pr.locale, 'de') as locale,
           concat_ws(' ', h.first_name, h.last_name) as name
      from public.holder_insurance_certificates c
      join public.long_term_holders h on h.id = c.holder_id
      join public.places p on p.id = h.place_id
      left join public.profiles pr on pr.id = h.user_id
     where c.reminded_at is null
       and c.valid_until >= v_today
       and c.valid_until <= v_today + v_days
       and (h.ends_on is null or h.ends_on >= v_today)
       and not exists (select 1 from public.holder_insurance_certificates n
                        where n.holder_id = c.holder_id and n.valid_until > c.valid_until)
       and coalesce(h.email, pr.email) ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
     order by c.valid_until
     for update of c skip locked
  loop
    v_en := v_row.locale = 'en';
    perform private.queue_mail(
      'insurance_reminder', v_row.email, v_row.locale,
      case when v_en
        then format('Your boat insurance expires on %s (berth %s)', to_char(v_row.valid_until, 'DD/MM/YYYY'), v_row.place_name)
        else format('Ihre Bootsversicherung läuft am %s ab (Liegeplatz %s)', to_char(v_row.valid_until, 'DD.MM.YYYY'), v_row.place_name) end,
      private.mail_text(v_row.locale, v_row.name, concat_ws(E'\n',
        case when v_en
          then format('the liability insurance certificate we have for your berth %s is valid until %s (%s, policy %s).',
                      v_row.place_name, to_char(v_row.valid_until, 'DD/MM/YYYY'), v_row.insurer, v_row.policy_number)
          else format('der Versicherungsnachweis, der uns für Ihren Liegeplatz %s vorliegt, gilt bis %s (%s, Police %s).',
                      v_row.place_name, to_char(v_row.valid_until, 'DD.MM.YYYY'), v_row.insurer, v_row.policy_number) end,
        case when v_en
          then 'The harbour regulations require a valid third-party liability insurance for every boat. Please upload the new certificate in your account:'
          else 'Die Hafenordnung verlangt für jedes Boot eine gültige Haftpflichtversicherung. Bitte laden Sie den neuen Nachweis in Ihrem Konto hoch:' end,
        v_site || case when v_en then '/en' else '' end || '/account/long-time-place')),
      '[]'::jsonb, private.setting('harbour_email'));
    update public.holder_insurance_certificates set reminded_at = v_now where id = v_row.id;
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
comment on function private.send_insurance_reminders() is 'Scheduled daily: insurance_reminder_days before a holder''s latest certificate expires, queues the reminder once per certificate (reminded_at); returns how many were queued.';
revoke execute on function private.send_insurance_reminders() from public;
