-- Periodic work: pg_cron + pg_net call the send-mail edge function every minute (and at once
-- when mail is queued), and expire stale unverified orders every five minutes. Set up only
-- where cron.schedule and net.http_post exist (hosted Supabase; the local stack's stand-in),
-- so this migration also runs on a bare Postgres.
--
-- Hosted: store the project URL and the anon key in Vault, as Supabase's scheduling guide does:
--   select vault.create_secret('https://<project-ref>.supabase.co', 'project_url');
--   select vault.create_secret('<anon key>', 'anon_key');
-- Without Vault (the local stack) the same two keys are read from private.app_settings.

-- ---------------------------------------------------------------- calling send-mail
create function private.edge_setting(p_name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_value text;
begin
  if to_regclass('vault.decrypted_secrets') is not null then
    begin
      execute 'select decrypted_secret from vault.decrypted_secrets where name = $1 limit 1' into v_value using p_name;
    exception when insufficient_privilege then
      v_value := null;
    end;
  end if;
  return coalesce(v_value, private.setting(p_name));
end
$$;
comment on function private.edge_setting(text) is 'project_url / anon_key for calling edge functions: from Vault where it exists, else private.app_settings.';
revoke all on function private.edge_setting(text) from public;

create function private.request_mail_delivery()
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_url text := private.edge_setting('project_url');
  v_key text := private.edge_setting('anon_key');
  v_id bigint;
begin
  if v_url is null or to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null then
    return null;
  end if;
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := 30000)'
    into v_id
    using rtrim(v_url, '/') || '/functions/v1/send-mail',
          jsonb_build_object('source', 'database'),
          jsonb_strip_nulls(jsonb_build_object('Content-Type', 'application/json',
                                               'Authorization', 'Bearer ' || v_key, 'apikey', v_key));
  return v_id;
end
$$;
comment on function private.request_mail_delivery() is 'Asks send-mail (through pg_net) to deliver the outbox now; a no-op where pg_net or the project URL is missing.';
revoke all on function private.request_mail_delivery() from public;

-- New mail goes out at once (pg_net sends after commit); the schedule below catches retries.
create function private.on_outbox_queued()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.request_mail_delivery();
  return null;
end
$$;
comment on function private.on_outbox_queued() is 'After mail is queued: one pg_net call to send-mail per statement.';
revoke all on function private.on_outbox_queued() from public;
create trigger outbox_request_delivery after insert on public.outbox
  for each statement execute function private.on_outbox_queued();

-- ---------------------------------------------------------------- schedules
do $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null then
    raise notice 'pg_cron is not installed: no schedules';
    return;
  end if;
  perform cron.schedule('send-mail', '* * * * *', 'select private.request_mail_delivery()');
  perform cron.schedule('expire-unverified-orders', '*/5 * * * *', 'select public.expire_unverified_orders()');
end
$$;
