-- The local stand-in for pg_cron and pg_net (hosted Supabase has both extensions), created only
-- when the real extensions are absent. Same SQL API (cron.schedule / cron.unschedule / cron.job,
-- net.http_post / net.http_get / net._http_response), so a migration that schedules a job, or a
-- trigger that calls net.http_post, works unchanged here and on hosted Supabase. The stack's
-- scheduler (src/functions/scheduler.ts) runs due jobs and sends the queued requests.
-- Idempotent; runs as supabase_admin. As on hosted, only postgres may use cron and net.
do $bootstrap$
begin
  if exists (select 1 from pg_extension where extname in ('pg_cron', 'pg_net')) then
    raise notice 'pg_cron/pg_net are installed: the local stand-in is not created';
    return;
  end if;

  create schema if not exists cron;
  create schema if not exists net;
  comment on schema cron is 'supabase-local: stand-in for pg_cron';
  comment on schema net is 'supabase-local: stand-in for pg_net';
  revoke all on schema cron, net from public;
  grant usage on schema cron, net to postgres;

  create table if not exists cron.job (
    jobid bigserial primary key,
    schedule text not null,
    command text not null,
    nodename text not null default 'localhost',
    nodeport integer not null default 5432,
    database text not null default current_database(),
    username text not null default current_user,
    active boolean not null default true,
    jobname text
  );
  create unique index if not exists jobname_username_uniq on cron.job (jobname, username);

  create table if not exists cron.job_run_details (
    jobid bigint,
    runid bigserial primary key,
    job_pid integer,
    database text,
    username text,
    command text,
    status text,
    return_message text,
    start_time timestamptz,
    end_time timestamptz
  );

  create table if not exists net.http_request_queue (
    id bigserial primary key,
    method text not null,
    url text not null,
    headers jsonb not null default '{}',
    body bytea,
    timeout_milliseconds integer not null default 5000
  );

  create table if not exists net._http_response (
    id bigint,
    status_code integer,
    content_type text,
    headers jsonb,
    content text,
    timed_out boolean,
    error_msg text,
    created timestamptz not null default now()
  );

  -- pg_cron's schedule forms: five cron fields, '@daily'-style names and '[1-59] seconds'.
  create or replace function cron._check_schedule(schedule text) returns void
  language plpgsql immutable as $fn$
  begin
    if schedule ~* '^\s*([1-9]|[1-5][0-9])\s+seconds?\s*$'
       or schedule ~* '^\s*@(yearly|annually|monthly|weekly|daily|midnight|hourly)\s*$'
       or (array_length(regexp_split_to_array(trim(schedule), '\s+'), 1) = 5
           and trim(schedule) ~ '^[0-9*/,A-Za-z -]+$') then
      return;
    end if;
    raise exception 'invalid schedule: %', schedule using errcode = '22023';
  end
  $fn$;

  -- The caller's identity is kept (jobs run as the role that scheduled them, as in pg_cron):
  -- hence security invoker, with table rights granted to postgres only.
  create or replace function cron.schedule(job_name text, schedule text, command text) returns bigint
  language plpgsql as $fn$
  declare
    id bigint;
  begin
    perform cron._check_schedule(schedule);
    insert into cron.job (jobname, schedule, command)
    values (job_name, schedule, command)
    on conflict (jobname, username) do update
      set schedule = excluded.schedule, command = excluded.command, active = true
    returning jobid into id;
    perform pg_notify('supabase_local_cron', id::text);
    return id;
  end
  $fn$;

  create or replace function cron.schedule(schedule text, command text) returns bigint
  language plpgsql as $fn$
  declare
    id bigint;
  begin
    perform cron._check_schedule(schedule);
    insert into cron.job (schedule, command) values (schedule, command) returning jobid into id;
    perform pg_notify('supabase_local_cron', id::text);
    return id;
  end
  $fn$;

  create or replace function cron.unschedule(job_name text) returns boolean
  language plpgsql as $fn$
  begin
    delete from cron.job where jobname = job_name and username = current_user;
    if not found then
      raise exception 'could not find valid entry for job ''%''', job_name;
    end if;
    return true;
  end
  $fn$;

  create or replace function cron.unschedule(job_id bigint) returns boolean
  language plpgsql as $fn$
  begin
    delete from cron.job where jobid = job_id and username = current_user;
    if not found then
      raise exception 'could not find valid entry for job %', job_id;
    end if;
    return true;
  end
  $fn$;

  -- pg_net's signatures; the request is queued and sent by the stack after commit.
  create or replace function net.http_post(
    url text,
    body jsonb default '{}'::jsonb,
    params jsonb default '{}'::jsonb,
    headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
    timeout_milliseconds integer default 5000
  ) returns bigint
  language plpgsql as $fn$
  declare
    id bigint;
    full_url text := url;
    query text;
  begin
    select string_agg(format('%s=%s', key, value), '&') into query
      from jsonb_each_text(coalesce(params, '{}'::jsonb));
    if query is not null then
      full_url := full_url || case when position('?' in full_url) > 0 then '&' else '?' end || query;
    end if;
    insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
    values ('POST', full_url, coalesce(headers, '{}'::jsonb), convert_to(coalesce(body, 'null'::jsonb)::text, 'UTF8'), timeout_milliseconds)
    returning net.http_request_queue.id into id;
    perform pg_notify('supabase_local_net', id::text);
    return id;
  end
  $fn$;

  create or replace function net.http_get(
    url text,
    params jsonb default '{}'::jsonb,
    headers jsonb default '{}'::jsonb,
    timeout_milliseconds integer default 5000
  ) returns bigint
  language plpgsql as $fn$
  declare
    id bigint;
    full_url text := url;
    query text;
  begin
    select string_agg(format('%s=%s', key, value), '&') into query
      from jsonb_each_text(coalesce(params, '{}'::jsonb));
    if query is not null then
      full_url := full_url || case when position('?' in full_url) > 0 then '&' else '?' end || query;
    end if;
    insert into net.http_request_queue (method, url, headers, timeout_milliseconds)
    values ('GET', full_url, coalesce(headers, '{}'::jsonb), timeout_milliseconds)
    returning net.http_request_queue.id into id;
    perform pg_notify('supabase_local_net', id::text);
    return id;
  end
  $fn$;

  revoke all on all tables in schema cron, net from public, anon, authenticated, service_role;
  revoke all on all sequences in schema cron, net from public, anon, authenticated, service_role;
  revoke all on all functions in schema cron, net from public, anon, authenticated, service_role;
  grant select, insert, update, delete on all tables in schema cron, net to postgres;
  grant usage, select on all sequences in schema cron, net to postgres;
  grant execute on all functions in schema cron, net to postgres;
end
$bootstrap$;

-- Supabase Vault (supabase_vault), which hosted projects use to hand pg_cron + pg_net jobs the
-- project URL and keys: vault.create_secret / vault.update_secret and vault.decrypted_secrets.
-- Locally the secrets are stored in plain text (this database never leaves the machine).
do $bootstrap$
begin
  if exists (select 1 from pg_extension where extname = 'supabase_vault')
     or to_regclass('vault.secrets') is not null then
    return;
  end if;
  create schema vault;
  comment on schema vault is 'supabase-local: stand-in for supabase_vault (secrets kept in plain text)';
  create table vault.secrets (
    id uuid primary key default gen_random_uuid(),
    name text,
    description text not null default '',
    secret text not null,
    key_id uuid,
    nonce bytea,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  );
  create unique index secrets_name_idx on vault.secrets (name) where name is not null;
  create view vault.decrypted_secrets as
    select id, name, description, secret, secret as decrypted_secret, key_id, nonce, created_at, updated_at
      from vault.secrets;

  create function vault.create_secret(new_secret text, new_name text default null,
    new_description text default '', new_key_id uuid default null) returns uuid
  language sql security definer set search_path = '' as $fn$
    insert into vault.secrets (secret, name, description, key_id)
    values (new_secret, new_name, coalesce(new_description, ''), new_key_id)
    returning id
  $fn$;

  create function vault.update_secret(secret_id uuid, new_secret text default null, new_name text default null,
    new_description text default null, new_key_id uuid default null) returns void
  language sql security definer set search_path = '' as $fn$
    update vault.secrets set
      secret = coalesce(new_secret, secret),
      name = coalesce(new_name, name),
      description = coalesce(new_description, description),
      key_id = coalesce(new_key_id, key_id),
      updated_at = now()
    where id = secret_id
  $fn$;

  revoke all on schema vault from public;
  revoke all on all tables in schema vault from public, anon, authenticated, service_role;
  revoke all on all functions in schema vault from public, anon, authenticated, service_role;
  -- As hosted: postgres only; a project that wants service_role to read it grants that itself.
  grant usage on schema vault to postgres with grant option;
  grant select, delete on vault.secrets, vault.decrypted_secrets to postgres with grant option;
  grant execute on function vault.create_secret(text, text, text, uuid), vault.update_secret(uuid, text, text, text, uuid)
    to postgres with grant option;
end
$bootstrap$;
