-- The mail engine (mail that is not auth mail): the outbox (rendered in SQL, in the recipient's
-- language), its claim and completion by the send-mail edge function, the helpers every mail
-- uses (amounts, Berlin times, the mail frame, the calendar attachment, the order's language),
-- and the call of send-mail through pg_net. Each domain queues its own mails in its own file
-- (booking confirmation 33_booking.sql, changes 34_order_changes.sql, receipts and refund
-- notices 35_payments_ledger.sql / 35a_stripe_payments.sql / 35c_online_refunds.sql, deposits
-- 56_deposits.sql, reminders 31_orders.sql, forms and replies 51_contact_messages.sql,
-- long-term applications 60_long_term.sql, invoices 52_invoice_mail.sql).

create table public.outbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('booking_confirmation', 'contact_message', 'service_request',
                                     'application_receipt', 'application_answer', 'payment_receipt',
                                     'booking_changed', 'booking_cancelled', 'refund_notice',
                                     'arrival_reminder', 'expiry_warning', 'message_reply', 'security_notice',
                                     'deposit_return', 'refund_failed', 'insurance_reminder',
                                     'berth_offer', 'berth_offer_declined', 'berth_offer_lapsed', 'berth_offer_accepted', 'contract_accepted',
                                     'fee_invoice', 'sepa_prenotification', 'fee_debit_failed', 'fee_reminder',
                                     'contract_renewed', 'contract_notice', 'contract_notice_office', 'contract_ended',
                                     'harbour_closure', 'depth_warning')),
  recipient text not null check (recipient ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  reply_to text,
  locale text not null default 'de' check (locale in ('de', 'en')),
  subject text not null,
  body_text text not null,
  attachments jsonb not null default '[]'::jsonb check (jsonb_typeof(attachments) = 'array'),
  order_id uuid references public.orders (id) on delete set null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);

alter table public.outbox enable row level security;

comment on table public.outbox is 'E-mails waiting for send-mail (SMTP), rendered in the recipient''s language; attachments are [{filename, content_type, content}].';

create index outbox_due_idx on public.outbox (next_attempt_at) where status in ('pending', 'sending');

create index outbox_order_idx on public.outbox (order_id);

-- Admins read every e-mail; harbour staff the e-mails of orders (what the guest was told, on
-- the order's page). One permissive policy per role and action (Supabase's advisor).
create policy "outbox: admins read all, staff an order's e-mails" on public.outbox
  for select to authenticated
  using ((select private.has_role('admin')) or (order_id is not null and (select private.is_staff())));

-- Only functions write it; send-mail reads and marks it as service_role (claim/complete below).
revoke insert, update, delete, truncate on public.outbox from anon, authenticated;

create function private.queue_mail(
  p_kind text,
  p_recipient text,
  p_locale text,
  p_subject text,
  p_body text,
  p_attachments jsonb default '[]'::jsonb,
  p_reply_to text default null,
  p_order_id uuid default null
)
returns bigint
language sql
volatile
security definer
set search_path = ''
as $$
  insert into public.outbox (kind, recipient, reply_to, locale, subject, body_text, attachments, order_id, next_attempt_at)
  values (p_kind, lower(btrim(p_recipient)), p_reply_to,
          case when p_locale in ('de', 'en') then p_locale else 'de' end,
          p_subject, p_body, coalesce(p_attachments, '[]'::jsonb), p_order_id,
          -- Due at once, whichever clock is read: a test clock frozen in the future (a scheduled
          -- job run "at" a time) must not hold the e-mail back until the real clock gets there.
          least(private.now(), pg_catalog.now()))
  returning id
$$;
comment on function private.queue_mail(text, text, text, text, text, jsonb, text, uuid) is 'Puts one rendered e-mail into the outbox for send-mail.';
revoke execute on function private.queue_mail(text, text, text, text, text, jsonb, text, uuid) from public;

-- send-mail claims due rows (concurrency-safe: skip locked, a lease of 5 minutes) ...
create function public.claim_outbox(p_limit integer default 20)
returns setof public.outbox
language sql
volatile
security definer
set search_path = ''
as $$
  update public.outbox o
     set status = 'sending', attempts = o.attempts + 1, locked_until = private.now() + interval '5 minutes'
   where o.id in (
     select x.id from public.outbox x
     where (x.status = 'pending' and x.next_attempt_at <= private.now())
        or (x.status = 'sending' and x.locked_until < private.now())
     order by x.next_attempt_at, x.id
     limit least(greatest(coalesce(p_limit, 20), 1), 100)
     for update skip locked
   )
  returning o.*
$$;
comment on function public.claim_outbox(integer) is 'send-mail (service role): leases up to p_limit due e-mails for 5 minutes and counts the attempt.';
revoke execute on function public.claim_outbox(integer) from anon, authenticated, public;

-- ... and reports each result: sent, or retried with exponential backoff (1, 2, 4 ... 60
-- minutes), or failed for good after 8 attempts.
create function public.complete_outbox(p_id bigint, p_ok boolean, p_error text default null)
returns public.outbox
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.outbox;
begin
  update public.outbox o set
    status = case when p_ok then 'sent' when o.attempts >= 8 then 'failed' else 'pending' end,
    sent_at = case when p_ok then private.now() end,
    last_error = case when p_ok then null else left(p_error, 2000) end,
    locked_until = null,
    next_attempt_at = case when p_ok then o.next_attempt_at
                           else private.now() + least(interval '1 minute' * power(2, greatest(o.attempts - 1, 0)), interval '60 minutes') end
   where o.id = p_id and o.status = 'sending'
  returning * into v_row;
  if not found then
    raise exception 'outbox_row_not_sending' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function public.complete_outbox(bigint, boolean, text) is 'send-mail (service role): marks a leased e-mail sent, or schedules a retry with backoff (failed after 8 attempts).';
revoke execute on function public.complete_outbox(bigint, boolean, text) from anon, authenticated, public;

create function private.format_eur(p_cents bigint, p_locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_locale = 'en'
              then 'EUR ' || to_char(p_cents / 100.0, 'FM999,999,990.00')
              else translate(to_char(p_cents / 100.0, 'FM999,999,990.00'), ',.', '.,') || ' €' end
$$;
comment on function private.format_eur(bigint, text) is 'Cents as money for an e-mail: 1.234,56 € (de) or EUR 1,234.56 (en).';
revoke execute on function private.format_eur(bigint, text) from public;

create function private.format_berlin(p_at timestamptz, p_locale text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when p_locale = 'en'
              then to_char(p_at at time zone 'Europe/Berlin', 'FMDD Mon YYYY, HH24:MI')
              else to_char(p_at at time zone 'Europe/Berlin', 'DD.MM.YYYY, HH24:MI') || ' Uhr' end
$$;
comment on function private.format_berlin(timestamptz, text) is 'An instant as Düsseldorf wall-clock time for an e-mail, per language.';
revoke execute on function private.format_berlin(timestamptz, text) from public;

-- The frame of every e-mail to a guest: the greeting (with the name when known), the body,
-- the sign-off; in the e-mail's language. send-mail renders the HTML part from this text.
create function private.mail_text(p_locale text, p_name text, p_body text)
returns text
language sql
immutable
set search_path = ''
as $$
  select concat_ws(E'\n',
    case when p_locale = 'en' then 'Hello' else 'Guten Tag' end || coalesce(' ' || nullif(btrim(p_name), ''), '') || ',',
    '',
    p_body,
    '',
    case when p_locale = 'en' then 'Kind regards' else 'Mit freundlichen Grüßen' end,
    'Hafen Düsseldorf')
$$;
comment on function private.mail_text(text, text, text) is 'Greeting, body and sign-off of an e-mail to a guest, in its language (de or en).';
revoke execute on function private.mail_text(text, text, text) from public;

create function private.ics_text(p_text text)
returns text
language sql
immutable
set search_path = ''
as $$
  select replace(replace(replace(replace(replace(coalesce(p_text, ''), '\', '\\'), ';', '\;'), ',', '\,'), E'\r', ''), E'\n', '\n')
$$;
comment on function private.ics_text(text) is 'Escapes text for an iCalendar (RFC 5545) property value.';
revoke execute on function private.ics_text(text) from public;

create function private.ics_utc(p_at timestamptz)
returns text
language sql
immutable
set search_path = ''
as $$
  select to_char(p_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"')
$$;
comment on function private.ics_utc(timestamptz) is 'An instant in iCalendar UTC form (20261122T130000Z).';
revoke execute on function private.ics_utc(timestamptz) from public;

create function private.order_locale(p_order public.orders)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    case when p_order.person ->> 'locale' in ('de', 'en') then p_order.person ->> 'locale' end,
    (select pr.locale from public.profiles pr where pr.id = p_order.user_id),
    (select case when u.raw_user_meta_data ->> 'locale' in ('de', 'en') then u.raw_user_meta_data ->> 'locale' end
       from auth.users u where u.id = p_order.user_id),
    'de')
$$;
comment on function private.order_locale(public.orders) is 'The language of an order''s guest: the language booked in (person.locale, set by create_booking and staff_create_booking), else profile, guest session metadata, German.';
revoke execute on function private.order_locale(public.orders) from public;

create function private.booking_ics(p_order public.orders, p_locale text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select concat_ws(E'\r\n',
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Hafen Duesseldorf//Buchung//DE',
    'CALSCALE:GREGORIAN',
    case when p_order.status = 'cancelled' then 'METHOD:CANCEL' else 'METHOD:PUBLISH' end,
    'BEGIN:VEVENT',
    'UID:' || p_order.id || '@hafen-duesseldorf.de',
    -- Each version of the event (a move, the cancellation) counts up, so calendars replace the
    -- earlier one (RFC 5545 3.8.7.4): the moves in the order's history, and one for cancelling.
    'SEQUENCE:' || ((select count(*) from public.order_events e where e.order_id = p_order.id and e.event in ('moved', 'rescheduled'))
                    + case when p_order.status = 'cancelled' then 1 else 0 end),
    'DTSTAMP:' || private.ics_utc(case when p_order.status = 'cancelled' or exists (
                    select 1 from public.order_events e where e.order_id = p_order.id and e.event in ('moved', 'rescheduled'))
                  then private.now() else p_order.created_at end),
    'DTSTART:' || private.ics_utc(p_order.starts_at),
    'DTEND:' || private.ics_utc(p_order.ends_at),
    'SUMMARY:' || private.ics_text(case when p_locale = 'en' then 'Berth ' else 'Liegeplatz ' end
                                   || (p_order.place_snapshot ->> 'name') || ' – Hafen Düsseldorf'),
    'LOCATION:' || private.ics_text('Hafen Düsseldorf'),
    'DESCRIPTION:' || private.ics_text(
      case when p_locale = 'en' then 'Boat: ' else 'Boot: ' end || coalesce(p_order.boat ->> 'name', '')
      || E'\n' || case when p_locale = 'en' then 'Booking: ' else 'Buchung: ' end || p_order.booking_number),
    case when p_order.status = 'cancelled' then 'STATUS:CANCELLED' else 'STATUS:CONFIRMED' end,
    'END:VEVENT',
    'END:VCALENDAR') || E'\r\n'
$$;
comment on function private.booking_ics(public.orders, text) is 'The stay as an iCalendar event (UTC times, CRLF lines; same UID for every version, SEQUENCE counting moves and the cancellation, METHOD:CANCEL once cancelled) for the booking e-mails.';
revoke execute on function private.booking_ics(public.orders, text) from public;

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
comment on function private.edge_setting(text) is 'project_url / anon_key / site_url for calling edge functions and linking to the app: from Vault where it exists, else private.app_settings.';
revoke execute on function private.edge_setting(text) from public;

-- The one way the database calls an edge function of its own project (send-mail, collect-fees,
-- fetch-gauge): POST {source: database} with the anon key through pg_net, after commit.
create function private.request_edge_function(p_name text, p_timeout_ms integer)
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
  execute 'select net.http_post(url := $1, body := $2, headers := $3, timeout_milliseconds := $4)'
    into v_id
    using rtrim(v_url, '/') || '/functions/v1/' || p_name,
          jsonb_build_object('source', 'database'),
          jsonb_strip_nulls(jsonb_build_object('Content-Type', 'application/json',
                                               'Authorization', 'Bearer ' || v_key, 'apikey', v_key)),
          p_timeout_ms;
  return v_id;
end
$$;
comment on function private.request_edge_function(text, integer) is 'Asks the project''s edge function p_name (through pg_net, with the anon key) to run; the request id, or null where pg_net or the project URL is missing.';
revoke execute on function private.request_edge_function(text, integer) from public;

create function private.request_mail_delivery()
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.request_edge_function('send-mail', 30000);
end
$$;
comment on function private.request_mail_delivery() is 'Asks send-mail (through pg_net) to deliver the outbox now; a no-op where pg_net or the project URL is missing.';
revoke execute on function private.request_mail_delivery() from public;

-- New mail goes out at once (pg_net sends after commit); the schedule (99_cron.sql) catches retries.
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
revoke execute on function private.on_outbox_queued() from public;

create trigger outbox_request_delivery after insert on public.outbox
  for each statement execute function private.on_outbox_queued();
