-- Schedules (pg_cron on hosted Supabase; the local stack's scheduler calls the same
-- functions): mail delivery every minute, expiry every five minutes, guest reminders every 15,
-- and the derived report tables brought up to date every five minutes (private.report_flush:
-- the reports also flush before they read, so this only bounds the queue a harbour that seldom
-- opens its reports would otherwise build up, and keeps that first read fast).
-- The holders' insurance reminder runs daily at 07:00 UTC (64_holder_insurance.sql).

-- Enables pg_cron and pg_net where the server offers them (so `supabase db push` sets up mail
-- delivery and order expiry without a dashboard step), then schedules both jobs (cron.schedule
-- replaces a job of the same name). Where they are not offered (PGlite, a bare Postgres; the
-- local stack brings its own stand-in), nothing changes.
do $$
begin
  if to_regprocedure('cron.schedule(text, text, text)') is null
     and exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_cron') then
    begin
      create extension if not exists pg_cron with schema pg_catalog;
      grant usage on schema cron to postgres;
    exception when others then
      raise notice 'pg_cron not enabled: %', sqlerrm;
    end;
  end if;
  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null
     and exists (select 1 from pg_catalog.pg_available_extensions where name = 'pg_net') then
    begin
      create extension if not exists pg_net with schema extensions;
    exception when others then
      raise notice 'pg_net not enabled: %', sqlerrm;
    end;
  end if;
  if to_regprocedure('cron.schedule(text, text, text)') is not null then
    -- cron.schedule replaces a job of the same name, so this is idempotent.
    perform cron.schedule('send-mail', '* * * * *', 'select private.request_mail_delivery()');
    perform cron.schedule('expire-unverified-orders', '*/5 * * * *', 'select public.expire_unverified_orders()');
    perform cron.schedule('guest-reminders', '*/15 * * * *', 'select private.send_guest_reminders()');
    perform cron.schedule('report-flush', '*/5 * * * *', 'select private.report_flush()');
    perform cron.schedule('lapse-offers', '*/15 * * * *', 'select private.lapse_offers()');
    perform cron.schedule('insurance-reminders', '0 7 * * *', 'select private.send_insurance_reminders()');
    perform cron.schedule('collect-fees', '0 5 * * *', 'select private.request_fee_collection()');
    -- Payment reminders for overdue long-term fees (65_fee_reminders.sql): daily, 05:30 UTC.
    perform cron.schedule('fee-reminders', '30 5 * * *', 'select private.send_fee_reminders()');
    -- The Düsseldorf gauge's level and forecast (48_rhine_gauge.sql): every 15 minutes.
    perform cron.schedule('fetch-gauge', '*/15 * * * *', 'select private.request_gauge_fetch()');
    -- Low-water warnings to those booked into a berth the forecast makes too shallow (53_draught_depth.sql):
    -- five minutes after each fetch.
    perform cron.schedule('depth-warnings', '5-59/15 * * * *', 'select private.warn_shallow_berths()');
  end if;
end
$$;
