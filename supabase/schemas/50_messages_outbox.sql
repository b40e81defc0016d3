-- Mail that is not auth mail: the outbox (rendered in SQL, in the recipient's language),
-- booking confirmations, contact messages and service requests, and the call of the
-- send-mail edge function through pg_net.

create table public.outbox (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('booking_confirmation', 'contact_message', 'service_request',
                                     'application_receipt', 'application_answer', 'payment_receipt',
                                     'booking_changed', 'booking_cancelled', 'refund_notice',
                                     'arrival_reminder', 'expiry_warning', 'message_reply', 'security_notice',
                                     'deposit_return', 'refund_failed')),
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

-- Every order that starts its life open (create_booking, staff bookings) is confirmed by
-- exactly one e-mail; imported or past orders (not open, or already over) are not.
create function private.on_order_created()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status in ('unverified', 'confirmed') and new.ends_at > private.now() then
    perform private.queue_booking_confirmation(new);
  end if;
  return null;
end
$$;
comment on function private.on_order_created() is 'After insert on orders: queues the booking confirmation of a new open order.';
revoke execute on function private.on_order_created() from public;

create trigger orders_queue_confirmation after insert on public.orders
  for each row execute function private.on_order_created();

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('contact', 'service_request')),
  service text check (service in ('boat_lift', 'mechanic', 'diesel', 'ice', 'washing_machine', 'charter',
                                  'skipper_training', 'parking', 'other')),
  name text not null check (char_length(name) between 1 and 100),
  email text not null check (email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  phone text check (char_length(phone) <= 40),
  locale text not null default 'de' check (locale in ('de', 'en')),
  message text not null check (char_length(message) between 10 and 2000),
  preferred_date date,
  boat jsonb,
  user_id uuid references auth.users (id) on delete set null,
  status text not null default 'open' check (status in ('open', 'done')),
  done_at timestamptz,
  done_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  check ((kind = 'service_request') = (service is not null)),
  check ((status = 'done') = (done_at is not null))
);

-- Staff see new contact messages and service requests without reloading (RLS decides per
-- subscriber: staff read all, senders their own).
alter publication supabase_realtime add table public.contact_messages;

alter table public.contact_messages enable row level security;

comment on table public.contact_messages is 'A contact message or a service request (boat lift, mechanic, diesel, ice ...) sent by anyone; staff mark it done.';

create index contact_messages_open_idx on public.contact_messages (status, created_at desc);

create index contact_messages_user_idx on public.contact_messages (user_id);

create index contact_messages_email_idx on public.contact_messages (lower(email), created_at);

-- One permissive policy per role and action (Supabase's advisor): the readers OR-ed in one.
create policy "contact_messages: sender reads own, staff all" on public.contact_messages
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_staff()));

revoke insert, update, delete, truncate on public.contact_messages from anon, authenticated;

-- The public forms (contact, service request, long-term application) are throttled per client
-- address as well as per e-mail address, so that neither the harbour's inbox nor a third party's
-- mailbox can be flooded from one machine by varying the address typed. The address comes from
-- the gateway's headers (private.request_client_address), never from the client; each row is
-- kept for a day only (the throttle's window), then deleted by the next submission.
create table private.form_submissions (
  id bigint generated always as identity primary key,
  form text not null check (form in ('contact', 'service_request', 'long_term_application')),
  client_address inet not null,
  submitted_at timestamptz not null default now()
);

alter table private.form_submissions enable row level security;

comment on table private.form_submissions is 'Submissions of the public forms per client address, kept for a day, for the per-address throttle; no API role reads it.';

create index form_submissions_address_idx on private.form_submissions (client_address, submitted_at);

-- Counts this request's address against the limit of its form group and records it. Limits:
-- 20 messages (contact and service requests together) and 5 long-term applications an hour per
-- address; a marina's shared wifi stays usable, a script does not. Outside an API request
-- (no address) nothing is counted.
create function private.throttle_form(p_form text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_address inet := private.request_client_address();
  v_now timestamptz := private.now();
  v_forms text[] := case when p_form = 'long_term_application' then array['long_term_application'] else array['contact', 'service_request'] end;
  v_limit integer := case when p_form = 'long_term_application' then 5 else 20 end;
begin
  if v_address is null then
    return;
  end if;
  delete from private.form_submissions f where f.submitted_at < v_now - interval '1 day';
  if (select count(*) from private.form_submissions f
      where f.client_address = v_address and f.form = any (v_forms)
        and f.submitted_at > v_now - interval '1 hour') >= v_limit then
    raise exception 'too_many_requests' using errcode = 'P0001',
      hint = format('At most %s submissions of this form an hour from one address.', v_limit);
  end if;
  insert into private.form_submissions (form, client_address, submitted_at) values (p_form, v_address, v_now);
end
$$;
comment on function private.throttle_form(text) is 'Per-address throttle of the public forms (20 messages, 5 long-term applications an hour); records the submission.';
revoke execute on function private.throttle_form(text) from public;

create function private.submit_message(
  p_kind text,
  p_service text,
  p_name text,
  p_email text,
  p_message text,
  p_phone text,
  p_locale text,
  p_preferred_date date,
  p_boat jsonb
)
returns public.contact_messages
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contact_messages;
  v_email text := lower(btrim(p_email));
  v_name text := btrim(p_name);
  v_message text := btrim(p_message);
  v_uid uuid := (select auth.uid());
  v_service_de text;
  v_service_en text;
  v_harbour text := private.setting('harbour_email');
begin
  if v_email is null or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'invalid_email' using errcode = '22023';
  end if;
  if v_name is null or char_length(v_name) not between 1 and 100 then
    raise exception 'invalid_name' using errcode = '22023', hint = 'Name 1-100 characters.';
  end if;
  if v_message is null or char_length(v_message) not between 10 and 2000 then
    raise exception 'invalid_message' using errcode = '22023', hint = 'Message 10-2000 characters.';
  end if;
  if char_length(p_phone) > 40 then
    raise exception 'invalid_phone' using errcode = '22023';
  end if;
  if p_kind = 'service_request' and (p_service is null or p_service not in
       ('boat_lift', 'mechanic', 'diesel', 'ice', 'washing_machine', 'charter', 'skipper_training', 'parking', 'other')) then
    raise exception 'invalid_service' using errcode = '22023';
  end if;
  -- Anyone may write, but not flood the harbour: 5 messages per address (and per session) an hour.
  if (select count(*) from public.contact_messages m
      where (lower(m.email) = v_email or (v_uid is not null and m.user_id = v_uid))
        and m.created_at > private.now() - interval '1 hour') >= 5 then
    raise exception 'too_many_messages' using errcode = 'P0001', hint = 'At most 5 messages an hour.';
  end if;
  perform private.throttle_form(p_kind);

  insert into public.contact_messages (kind, service, name, email, phone, locale, message, preferred_date, boat, user_id, created_at)
  values (p_kind, case when p_kind = 'service_request' then p_service end, v_name, v_email, nullif(btrim(p_phone), ''),
          case when p_locale in ('de', 'en') then p_locale else 'de' end, v_message, p_preferred_date,
          case when jsonb_typeof(p_boat) = 'object' then p_boat end, v_uid, private.now())
  returning * into v_row;

  select d, e into v_service_de, v_service_en from (values
    ('boat_lift', 'Bootskran', 'boat lift'), ('mechanic', 'Mechaniker', 'mechanic'), ('diesel', 'Diesel', 'diesel'),
    ('ice', 'Eis', 'ice'), ('washing_machine', 'Waschmaschine', 'washing machine'), ('charter', 'Charter', 'charter'),
    ('skipper_training', 'Skippertraining', 'skipper training'), ('parking', 'Parken', 'parking'), ('other', 'Sonstiges', 'other')
  ) as s(k, d, e) where s.k = v_row.service;

  -- To the harbour, in German (the harbour's language); replies go to the sender.
  if v_harbour is not null then
    perform private.queue_mail(
      case when p_kind = 'service_request' then 'service_request' else 'contact_message' end, v_harbour, 'de',
      case when p_kind = 'service_request'
           then format('Serviceanfrage (%s) von %s', v_service_de, v_row.name)
           else format('Kontaktanfrage von %s', v_row.name) end,
      concat_ws(E'\n',
        case when p_kind = 'service_request' then 'Neue Serviceanfrage: ' || v_service_de else 'Neue Nachricht über das Kontaktformular.' end,
        '',
        'Name: ' || v_row.name,
        'E-Mail: ' || v_row.email,
        'Telefon: ' || coalesce(v_row.phone, '–'),
        'Sprache: ' || v_row.locale,
        case when v_row.preferred_date is not null then 'Wunschtermin: ' || to_char(v_row.preferred_date, 'DD.MM.YYYY') end,
        case when v_row.boat is not null then 'Boot: ' || concat_ws(', ', v_row.boat ->> 'name',
             (v_row.boat ->> 'length') || ' m', (v_row.boat ->> 'width') || ' m') end,
        '',
        v_row.message,
        '',
        'Nachricht-ID: ' || v_row.id),
      '[]'::jsonb,
      v_row.email,
      null);
  end if;
  return v_row;
end
$$;
comment on function private.submit_message(text, text, text, text, text, text, text, date, jsonb) is 'Validates, throttles (5 an hour per e-mail address, 20 per client address) and stores a contact message or service request, and e-mails the harbour.';
revoke execute on function private.submit_message(text, text, text, text, text, text, text, date, jsonb) from public;

create function private.send_contact_message(
  p_name text,
  p_email text,
  p_message text,
  p_phone text default null,
  p_locale text default 'de'
)
returns uuid
language sql
volatile
security definer
set search_path = ''
as $$
  select (private.submit_message('contact', null, p_name, p_email, p_message, p_phone, p_locale, null, null)).id
$$;
comment on function private.send_contact_message(text, text, text, text, text) is 'The rule behind public.send_contact_message (security definer, not exposed by the API).';
revoke execute on function private.send_contact_message(text, text, text, text, text) from public;
grant execute on function private.send_contact_message(text, text, text, text, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/send_contact_message): runs as the caller, the rule above decides.
create function public.send_contact_message(p_name text, p_email text, p_message text, p_phone text DEFAULT NULL::text, p_locale text DEFAULT 'de'::text)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.send_contact_message(p_name, p_email, p_message, p_phone, p_locale)
$$;
comment on function public.send_contact_message(text, text, text, text, text) is 'Anyone: sends a message to the harbour (stored for staff, e-mailed to the harbour); returns its id.';
revoke execute on function public.send_contact_message(text, text, text, text, text) from public;

create function private.request_service(
  p_service text,
  p_name text,
  p_email text,
  p_message text,
  p_phone text default null,
  p_preferred_date date default null,
  p_boat jsonb default null,
  p_locale text default 'de'
)
returns uuid
language sql
volatile
security definer
set search_path = ''
as $$
  select (private.submit_message('service_request', p_service, p_name, p_email, p_message, p_phone, p_locale, p_preferred_date, p_boat)).id
$$;
comment on function private.request_service(text, text, text, text, text, date, jsonb, text) is 'The rule behind public.request_service (security definer, not exposed by the API).';
revoke execute on function private.request_service(text, text, text, text, text, date, jsonb, text) from public;
grant execute on function private.request_service(text, text, text, text, text, date, jsonb, text) to anon, authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/request_service): runs as the caller, the rule above decides.
create function public.request_service(p_service text, p_name text, p_email text, p_message text, p_phone text DEFAULT NULL::text, p_preferred_date date DEFAULT NULL::date, p_boat jsonb DEFAULT NULL::jsonb, p_locale text DEFAULT 'de'::text)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.request_service(p_service, p_name, p_email, p_message, p_phone, p_preferred_date, p_boat, p_locale)
$$;
comment on function public.request_service(text, text, text, text, text, date, jsonb, text) is 'Anyone: asks the harbour for a service (boat lift, mechanic, diesel, ice ...); stored for staff and e-mailed to the harbour.';
revoke execute on function public.request_service(text, text, text, text, text, date, jsonb, text) from public;

create function private.set_message_done(p_message_id uuid, p_done boolean default true)
returns public.contact_messages
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.contact_messages;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  update public.contact_messages m set
    status = case when p_done then 'done' else 'open' end,
    done_at = case when p_done then coalesce(m.done_at, private.now()) end,
    done_by = case when p_done then coalesce(m.done_by, (select auth.uid())) end
   where m.id = p_message_id
  returning * into v_row;
  if not found then
    raise exception 'message_not_found' using errcode = 'PT404';
  end if;
  return v_row;
end
$$;
comment on function private.set_message_done(uuid, boolean) is 'The rule behind public.set_message_done (security definer, not exposed by the API).';
revoke execute on function private.set_message_done(uuid, boolean) from public;
grant execute on function private.set_message_done(uuid, boolean) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/set_message_done): runs as the caller, the rule above decides.
create function public.set_message_done(p_message_id uuid, p_done boolean DEFAULT true)
returns public.contact_messages
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.set_message_done(p_message_id, p_done)
$$;
comment on function public.set_message_done(uuid, boolean) is 'Staff mark a contact message or service request done (or open again).';
revoke execute on function public.set_message_done(uuid, boolean) from anon, public;

-- Staff answer a contact message or service request from the inbox (issue 22): the answer goes
-- to the sender by e-mail in the sender's language, with the harbour's address as Reply-To, and
-- stays on the message as its thread. Only the function writes; staff read.
create table public.message_replies (
  id uuid primary key default gen_random_uuid(),
  message_id uuid references public.contact_messages (id) on delete cascade,
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  author uuid references auth.users (id) on delete set null,
  author_name text,
  outbox_id bigint references public.outbox (id) on delete set null,
  created_at timestamptz not null default now(),
  -- Admins answer a long-term application the same way (60_long_term.sql, reply_to_application).
  application_id uuid,
  constraint message_replies_one_thread check (num_nonnulls(message_id, application_id) = 1)
);

alter table public.message_replies enable row level security;

comment on table public.message_replies is 'Staff answers to contact messages and service requests (message_id), and admins'' answers to long-term applications (application_id), sent by e-mail (outbox_id) and kept as the thread.';

create index message_replies_message_idx on public.message_replies (message_id, created_at);

create index message_replies_author_idx on public.message_replies (author);

create index message_replies_outbox_idx on public.message_replies (outbox_id);

create policy "message_replies: staff read, admins an application's" on public.message_replies
  for select to authenticated
  using ((select private.is_staff()) and (application_id is null or (select private.has_role('admin'))));

revoke insert, update, delete, truncate on public.message_replies from anon, authenticated;

alter publication supabase_realtime add table public.message_replies;

-- One answer on a thread (a message's or an application's): e-mailed with the mail frame, the
-- answer first, then the quoted original; Reply-To the harbour; kept with its author. The
-- callers check who may answer and load what is answered.
create function private.send_reply(p_message_id uuid, p_application_id uuid, p_recipient text, p_locale text, p_name text,
                                   p_subject text, p_body text, p_quote_intro text, p_quote text)
returns public.message_replies
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_body text := btrim(p_body);
  v_author text;
  v_outbox bigint;
  v_reply public.message_replies;
begin
  if v_body is null or char_length(v_body) not between 1 and 5000 then
    raise exception 'invalid_reply' using errcode = '22023', hint = 'Reply 1-5000 characters.';
  end if;
  select nullif(btrim(concat_ws(' ', pr.first_name, pr.last_name)), '') into v_author
    from public.profiles pr where pr.id = (select auth.uid());
  v_outbox := private.queue_mail(
    'message_reply', p_recipient, p_locale, p_subject,
    private.mail_text(p_locale, p_name, concat_ws(E'\n',
      v_body,
      '',
      p_quote_intro,
      case when p_quote is not null then '> ' || replace(p_quote, E'\n', E'\n> ') end)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    null);
  insert into public.message_replies (message_id, application_id, body, author, author_name, outbox_id, created_at)
  values (p_message_id, p_application_id, v_body, (select auth.uid()), v_author, v_outbox, private.now())
  returning * into v_reply;
  return v_reply;
end
$$;
comment on function private.send_reply(uuid, uuid, text, text, text, text, text, text, text) is 'E-mails one answer (mail frame, the answer, the quoted original; Reply-To the harbour) and keeps it on the thread of a message or an application; the caller checks the right to answer.';
revoke execute on function private.send_reply(uuid, uuid, text, text, text, text, text, text, text) from public;

create function private.reply_to_message(p_message_id uuid, p_body text)
returns public.message_replies
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_message public.contact_messages;
  v_en boolean;
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  select * into v_message from public.contact_messages m where m.id = p_message_id for update;
  if not found then
    raise exception 'message_not_found' using errcode = 'PT404';
  end if;
  v_en := v_message.locale = 'en';
  return private.send_reply(
    p_message_id, null, v_message.email, v_message.locale, v_message.name,
    case
      when v_message.kind = 'service_request' and v_en then 'Re: Your service request to Hafen Düsseldorf'
      when v_message.kind = 'service_request' then 'Re: Ihre Serviceanfrage an den Hafen Düsseldorf'
      when v_en then 'Re: Your message to Hafen Düsseldorf'
      else 'Re: Ihre Nachricht an den Hafen Düsseldorf' end,
    p_body,
    case when v_en then 'Your message of ' else 'Ihre Nachricht vom ' end
      || private.format_berlin(v_message.created_at, v_message.locale) || ':',
    v_message.message);
end
$$;
comment on function private.reply_to_message(uuid, text) is 'The rule behind public.reply_to_message (security definer, not exposed by the API).';
revoke execute on function private.reply_to_message(uuid, text) from public;
grant execute on function private.reply_to_message(uuid, text) to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/reply_to_message): runs as the caller, the rule above decides.
create function public.reply_to_message(p_message_id uuid, p_body text)
returns public.message_replies
language sql
volatile
security invoker
set search_path = ''
as $$
  select * from private.reply_to_message(p_message_id, p_body)
$$;
comment on function public.reply_to_message(uuid, text) is 'Staff answer a contact message or service request: the answer is e-mailed to the sender (Reply-To: the harbour) and kept on the message.';
revoke execute on function public.reply_to_message(uuid, text) from anon, public;

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

create function private.queue_booking_confirmation(p_order public.orders)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_locale text := private.order_locale(p_order);
  v_en boolean := v_locale = 'en';
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_name text := btrim(concat_ws(' ', p_order.person ->> 'first_name', p_order.person ->> 'last_name'));
  v_place text := p_order.place_snapshot ->> 'name';
  v_net bigint := coalesce((p_order.price_breakdown ->> 'net_cents')::bigint, 0);
  v_vat bigint := coalesce((p_order.price_breakdown ->> 'vat_cents')::bigint, 0);
  v_subject text;
  v_body text;
begin
  if p_order.email is null or p_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_subject := case when v_en
    then format('Your booking at Hafen Düsseldorf: berth %s, %s', v_place, private.format_berlin(p_order.starts_at, 'en'))
    else format('Ihre Buchung im Hafen Düsseldorf: Liegeplatz %s, %s', v_place, private.format_berlin(p_order.starts_at, 'de')) end;
  v_body := private.mail_text(v_locale, v_name, concat_ws(E'\n',
    case when v_en then 'thank you for your booking. Your stay:' else 'vielen Dank für Ihre Buchung. Ihr Aufenthalt:' end,
    '',
    case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place
      || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (p_order.place_snapshot ->> 'pier') || ')', ''),
    case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(p_order.starts_at, v_locale),
    case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(p_order.ends_at, v_locale),
    case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(p_order.boat ->> 'name', '')
      || format(' (%s m × %s m)',
                case when v_en then p_order.boat ->> 'length' else replace(p_order.boat ->> 'length', '.', ',') end,
                case when v_en then p_order.boat ->> 'width' else replace(p_order.boat ->> 'width', '.', ',') end),
    '',
    case when v_en then 'Net: ' else 'Netto: ' end || private.format_eur(v_net, v_locale),
    case when v_en then 'VAT 19 %: ' else 'MwSt. 19 %: ' end || private.format_eur(v_vat, v_locale),
    case when v_en then 'Total: ' else 'Gesamt: ' end || private.format_eur(p_order.price_cents, v_locale),
    '',
    case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || p_order.booking_number,
    case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || p_order.id,
    -- How the stay is paid (the mode as booked); an order that must be paid online names its deadline.
    E'\n' || case
      when p_order.payment_mode = 'online_required' and p_order.expires_at is not null then case when v_en
        then format('Please pay online by %s (link above, "Pay now"). Otherwise the booking expires and the berth is released.', private.format_berlin(p_order.expires_at, 'en'))
        else format('Bitte bezahlen Sie bis %s online (Link oben, „Jetzt bezahlen“). Sonst verfällt die Buchung und der Liegeplatz wird freigegeben.', private.format_berlin(p_order.expires_at, 'de')) end
      when p_order.payment_mode = 'desk' then case when v_en
        then 'Payment: at the harbour office (cash, card or bank transfer).'
        else 'Bezahlung: im Hafenbüro (bar, mit Karte oder per Überweisung).' end
      when p_order.price_cents > 0 then case when v_en
        then 'Payment: online on your booking page (link above) or at the harbour office.'
        else 'Bezahlung: online auf Ihrer Buchungsseite (Link oben) oder im Hafenbüro.' end
    end,
    -- A guest order that must be paid lapses at the payment deadline; paying keeps it, so the
    -- e-mail confirmation is not a deadline of its own then.
    case when p_order.status = 'unverified' and p_order.payment_mode <> 'online_required' then E'\n' || case when v_en
      then 'Please confirm your e-mail address within 24 hours (at the latest by your arrival): log in with your e-mail address and the code we send you, from any device. Otherwise the booking expires and the berth is released.'
      else 'Bitte bestätigen Sie Ihre E-Mail-Adresse innerhalb von 24 Stunden (spätestens bis zur Ankunft): Melden Sie sich mit Ihrer E-Mail-Adresse und dem Code an, den wir Ihnen senden – von jedem Gerät aus. Sonst verfällt die Buchung und der Liegeplatz wird freigegeben.' end end,
    '',
    case when v_en then 'Check-in is possible on the arrival day.' else 'Der Check-in ist am Ankunftstag möglich.' end));
  return private.queue_mail(
    'booking_confirmation', p_order.email, v_locale, v_subject, v_body,
    jsonb_build_array(jsonb_build_object(
      'filename', case when v_en then 'booking-' else 'buchung-' end || v_place || '.ics',
      'content_type', 'text/calendar; charset=utf-8; method=PUBLISH',
      'content', private.booking_ics(p_order, v_locale))),
    private.setting('harbour_email'),
    p_order.id);
end
$$;
comment on function private.queue_booking_confirmation(public.orders) is 'Queues the booking confirmation (guest''s language, price with VAT, how it is paid and the payment deadline when it must be paid online, verification hint for guests, .ics of the stay).';
revoke execute on function private.queue_booking_confirmation(public.orders) from public;

-- The receipt of an online payment (issue 20): when Stripe's payment is in the ledger, the
-- guest gets it in the booking's language (amount, booking number, link to the order). A
-- second charge that must be refunded gets no receipt (staff refund it).
create function private.queue_payment_receipt()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
begin
  if new.kind <> 'payment' or new.method <> 'online' or new.refund_of is not null or new.note like 'to_refund:%' then
    return null;
  end if;
  select * into v_order from public.orders o where o.id = new.order_id;
  if v_order.email is null or v_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.order_locale(v_order);
  v_en := v_locale = 'en';
  perform private.queue_mail(
    'payment_receipt', v_order.email, v_locale,
    case when v_en
      then format('Payment received: berth %s, %s', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'en'))
      else format('Zahlung erhalten: Liegeplatz %s, %s', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'de')) end,
    private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
      case when v_en then 'we have received your online payment. Thank you!' else 'wir haben Ihre Online-Zahlung erhalten. Vielen Dank!' end,
      '',
      case when v_en then 'Amount: ' else 'Betrag: ' end || private.format_eur(new.amount_cents, v_locale),
      case when v_en then 'Paid on: ' else 'Bezahlt am: ' end || private.format_berlin(new.recorded_at, v_locale),
      case when v_en then 'Payment reference: ' else 'Zahlungsreferenz: ' end || coalesce(new.provider_payment_id, new.id::text),
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    v_order.id);
  return null;
end
$$;
comment on function private.queue_payment_receipt() is 'After insert on payments: queues the receipt of an online payment to the guest (booking language; not for a second charge to be refunded).';
revoke execute on function private.queue_payment_receipt() from public;

create trigger payments_queue_receipt after insert on public.payments
  for each row execute function private.queue_payment_receipt();

-- The guest hears of every change staff or the guest make to a booking (issue 22), in the
-- booking's language: a move (other berth or dates) with the updated calendar entry, a
-- cancellation with the entry that removes it. Fires after orders_record_event (trigger names
-- sort), so the .ics counts the move just recorded.
create function private.on_order_changed()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_place text := new.place_snapshot ->> 'name';
  v_open constant public.order_status[] := array['unverified', 'confirmed', 'checked_in']::public.order_status[];
  v_cancelled boolean := new.status = 'cancelled' and old.status = any (v_open);
  v_moved boolean := new.status = any (v_open) and (new.place_id <> old.place_id or new.starts_at <> old.starts_at or new.ends_at <> old.ends_at);
  v_by_guest boolean := (select auth.uid()) is not distinct from new.user_id and new.user_id is not null;
  v_link text;
begin
  if not (v_cancelled or v_moved) or new.ends_at <= private.now() or not private.guest_mail_wanted()
     or new.email is null or new.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.order_locale(new);
  v_en := v_locale = 'en';
  v_link := v_site || case when v_en then '/en' else '' end || '/order/' || new.id;
  perform private.queue_mail(
    case when v_cancelled then 'booking_cancelled' else 'booking_changed' end,
    new.email, v_locale,
    case when v_cancelled then case when v_en
        then format('Booking cancelled: berth %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'en'), new.booking_number)
        else format('Buchung storniert: Liegeplatz %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'de'), new.booking_number) end
      else case when v_en
        then format('Booking changed: berth %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'en'), new.booking_number)
        else format('Buchung geändert: Liegeplatz %s, %s (%s)', v_place, private.format_berlin(new.starts_at, 'de'), new.booking_number) end
    end,
    private.mail_text(v_locale, concat_ws(' ', new.person ->> 'first_name', new.person ->> 'last_name'), concat_ws(E'\n',
      case
        when v_cancelled and v_by_guest then case when v_en
          then format('as you asked, your booking %s has been cancelled. The berth is released.', new.booking_number)
          else format('wie gewünscht haben wir Ihre Buchung %s storniert. Der Liegeplatz ist freigegeben.', new.booking_number) end
        when v_cancelled then case when v_en
          then format('the harbour team has cancelled your booking %s. The berth is released. If you have questions, simply reply to this e-mail.', new.booking_number)
          else format('das Hafenteam hat Ihre Buchung %s storniert. Der Liegeplatz ist freigegeben. Bei Fragen antworten Sie einfach auf diese E-Mail.', new.booking_number) end
        else case when v_en
          then format('your booking %s has been changed. Your stay now:', new.booking_number)
          else format('Ihre Buchung %s wurde geändert. Ihr Aufenthalt jetzt:', new.booking_number) end
      end,
      '',
      case when v_en then 'Berth: ' else 'Liegeplatz: ' end || v_place
        || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (new.place_snapshot ->> 'pier') || ')', '')
        || case when v_moved and new.place_id <> old.place_id
             then case when v_en then ' (before: ' else ' (bisher: ' end || (old.place_snapshot ->> 'name') || ')' else '' end,
      case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(new.starts_at, v_locale),
      case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(new.ends_at, v_locale),
      case when v_en then 'Boat: ' else 'Boot: ' end || coalesce(new.boat ->> 'name', ''),
      -- Other dates, other price (reschedule_booking): the new price and what it was; what is
      -- owed or paid back follows on the booking's page.
      case when v_moved and new.price_cents <> old.price_cents then
        case when v_en then 'Price: ' || private.format_eur(new.price_cents, 'en') || ' (before: ' || private.format_eur(old.price_cents, 'en') || ')'
             else 'Preis: ' || private.format_eur(new.price_cents, 'de') || ' (bisher: ' || private.format_eur(old.price_cents, 'de') || ')' end
      end,
      '',
      case when v_cancelled then case
          when new.payment_status = 'refunded' then case when v_en then 'The amount paid has been refunded.' else 'Der gezahlte Betrag wurde erstattet.' end
          when new.payment_status in ('paid', 'partially_refunded') then case when v_en
            then 'We will refund what you have paid; you will receive a separate message.'
            else 'Bereits Gezahltes erstatten wir Ihnen; Sie erhalten dazu eine eigene Nachricht.' end
          else case when v_en then 'There is nothing to pay.' else 'Es ist nichts zu bezahlen.' end
        end
      end,
      case when v_cancelled
        then case when v_en then 'The attached calendar entry removes the stay from your calendar.' else 'Der Kalendereintrag im Anhang entfernt den Aufenthalt aus Ihrem Kalender.' end
        else case when v_en then 'The attached calendar entry updates the stay in your calendar.' else 'Der Kalendereintrag im Anhang aktualisiert den Aufenthalt in Ihrem Kalender.' end
      end,
      '',
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || new.booking_number,
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_link)),
    jsonb_build_array(jsonb_build_object(
      'filename', case when v_en then 'booking-' else 'buchung-' end || v_place || '.ics',
      'content_type', 'text/calendar; charset=utf-8; method=' || case when v_cancelled then 'CANCEL' else 'PUBLISH' end,
      'content', private.booking_ics(new, v_locale))),
    private.setting('harbour_email'),
    new.id);
  return null;
end
$$;
comment on function private.on_order_changed() is 'After update on orders: tells the guest of a move (berth or dates; updated .ics) or a cancellation (.ics with METHOD:CANCEL) of an open booking that has not ended, by e-mail in the booking''s language.';
revoke execute on function private.on_order_changed() from public;

create trigger orders_tell_guest after update of status, place_id, starts_at, ends_at on public.orders
  for each row execute function private.on_order_changed();

-- A refund in the ledger (online through Stripe, or cash / transfer at the desk) is confirmed
-- to the guest: the amount, how it comes back, the booking.
create function private.queue_refund_notice()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
begin
  -- A returned deposit paid back has its own mail (private.queue_deposit_return_notice).
  if new.kind <> 'refund' or new.deposit_return or not private.guest_mail_wanted() then
    return null;
  end if;
  select * into v_order from public.orders o where o.id = new.order_id;
  if v_order.email is null or v_order.email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  v_locale := private.order_locale(v_order);
  v_en := v_locale = 'en';
  perform private.queue_mail(
    'refund_notice', v_order.email, v_locale,
    case when v_en
      then format('Refund of %s: booking %s', private.format_eur(new.amount_cents, 'en'), v_order.booking_number)
      else format('Erstattung von %s: Buchung %s', private.format_eur(new.amount_cents, 'de'), v_order.booking_number) end,
    private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
      case new.method
        when 'online' then case when v_en
          then format('we have refunded %s to the card you paid with. Depending on your bank it shows on your statement within 5 to 10 days.', private.format_eur(new.amount_cents, 'en'))
          else format('wir haben Ihnen %s auf die Karte erstattet, mit der Sie bezahlt haben. Je nach Bank erscheint der Betrag in 5 bis 10 Tagen auf Ihrer Abrechnung.', private.format_eur(new.amount_cents, 'de')) end
        when 'bank_transfer' then case when v_en
          then format('we have refunded %s by bank transfer.', private.format_eur(new.amount_cents, 'en'))
          else format('wir haben Ihnen %s per Überweisung erstattet.', private.format_eur(new.amount_cents, 'de')) end
        else case when v_en
          then format('we have refunded %s to you at the harbour office.', private.format_eur(new.amount_cents, 'en'))
          else format('wir haben Ihnen %s im Hafenbüro erstattet.', private.format_eur(new.amount_cents, 'de')) end
      end,
      '',
      case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
      case when v_en then 'Berth: ' else 'Liegeplatz: ' end || (v_order.place_snapshot ->> 'name') || ', '
        || private.format_berlin(v_order.starts_at, v_locale),
      case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id)),
    '[]'::jsonb,
    private.setting('harbour_email'),
    v_order.id);
  return null;
end
$$;
comment on function private.queue_refund_notice() is 'After insert on payments: confirms a refund (online, cash or transfer) to the guest by e-mail in the booking''s language.';
revoke execute on function private.queue_refund_notice() from public;

create trigger payments_queue_refund_notice after insert on public.payments
  for each row execute function private.queue_refund_notice();

-- A card refund that Stripe reported failed after it had succeeded (the guest was told it was
-- on its way) is reversed in the ledger by a payment row that refers to it
-- (private.record_online_refund). The guest learns that the money did not arrive and that the
-- harbour office will pay it back another way; the harbour office learns it must.
create function private.queue_refund_failed_notice()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_order public.orders;
  v_refund public.payments;
  v_locale text;
  v_en boolean;
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_harbour text := private.setting('harbour_email');
  v_what_de text;
  v_what_en text;
begin
  if new.kind <> 'payment' or new.refund_of is null then
    return null;
  end if;
  select * into v_order from public.orders o where o.id = new.order_id;
  select * into v_refund from public.payments r where r.id = new.refund_of;
  v_what_de := case when v_refund.deposit_return then 'Rückzahlung Ihres Pfands' else 'Erstattung' end;
  v_what_en := case when v_refund.deposit_return then 'return of your deposit' else 'refund' end;
  if v_order.email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    v_locale := private.order_locale(v_order);
    v_en := v_locale = 'en';
    perform private.queue_mail(
      'refund_failed', v_order.email, v_locale,
      case when v_en
        then format('Refund of %s failed: booking %s', private.format_eur(new.amount_cents, 'en'), v_order.booking_number)
        else format('Erstattung von %s fehlgeschlagen: Buchung %s', private.format_eur(new.amount_cents, 'de'), v_order.booking_number) end,
      private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
        case when v_en
          then format('the %s of %s to the card you paid with has failed: your bank did not accept it (for example because the card is no longer valid).', v_what_en, private.format_eur(new.amount_cents, 'en'))
          else format('die %s von %s auf die Karte, mit der Sie bezahlt haben, ist leider fehlgeschlagen: Ihre Bank hat sie nicht angenommen (zum Beispiel, weil die Karte nicht mehr gültig ist).', v_what_de, private.format_eur(new.amount_cents, 'de')) end,
        case when v_en
          then 'The money is not lost: the harbour office will contact you and pay it back another way, for example by bank transfer. You can reply to this e-mail.'
          else 'Das Geld ist nicht verloren: Das Hafenbüro meldet sich bei Ihnen und zahlt es auf anderem Weg zurück, zum Beispiel per Überweisung. Sie können auf diese E-Mail antworten.' end,
        '',
        case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
        case when v_en then 'Your booking: ' else 'Ihre Buchung: ' end || v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id)),
      '[]'::jsonb,
      v_harbour,
      v_order.id);
  end if;
  -- To the harbour office, in German: the money is back on the Stripe account and must go out again.
  if v_harbour ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    perform private.queue_mail(
      'refund_failed', v_harbour, 'de',
      format('Erstattung fehlgeschlagen: Buchung %s (%s)', v_order.booking_number, private.format_eur(new.amount_cents, 'de')),
      concat_ws(E'\n',
        format('Stripe hat die %s von %s zu Buchung %s als fehlgeschlagen gemeldet; die Bank des Gastes hat sie nicht angenommen.',
               case when v_refund.deposit_return then 'Pfandrückzahlung' else 'Erstattung' end,
               private.format_eur(new.amount_cents, 'de'), v_order.booking_number),
        'Der Betrag ist zurück auf dem Stripe-Konto und im Zahlungsverlauf der Buchung zurückgebucht.',
        'Bitte auf anderem Weg erstatten (zum Beispiel per Überweisung) und dort erfassen.'
          || case when v_order.email is not null then ' Der Gast wurde per E-Mail informiert.' else '' end,
        '',
        'Gast: ' || coalesce(nullif(concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), ''), '–')
          || coalesce(' <' || v_order.email || '>', ''),
        'Buchung: ' || v_site || '/account/admin/orders/' || v_order.id),
      '[]'::jsonb,
      v_order.email,
      v_order.id);
  end if;
  return null;
end
$$;
comment on function private.queue_refund_failed_notice() is 'After insert on payments: when a row reverses a refund Stripe reported failed, tells the guest (booking language) and the harbour office (German) that the money must go back another way.';
revoke execute on function private.queue_refund_failed_notice() from public;

create trigger payments_queue_refund_failed_notice after insert on public.payments
  for each row execute function private.queue_refund_failed_notice();

-- Reminders the scheduler sends (99_cron.sql, every 15 minutes), each at most once per order
-- (the outbox is the record): the day before arrival from 09:00 Berlin time, what to know on
-- arriving; and a few hours before an unverified or unpaid booking lapses, how to keep it.
create function private.send_guest_reminders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := private.now();
  v_today date := private.berlin_date(v_now);
  v_site text := coalesce(private.edge_setting('site_url'), '');
  v_address text := concat_ws(', ', private.setting('invoice_street'),
                              nullif(concat_ws(' ', private.setting('invoice_postal_code'), private.setting('invoice_city')), ''));
  v_order public.orders;
  v_locale text;
  v_en boolean;
  v_link text;
  v_count integer := 0;
  v_pay boolean;
begin
  -- The day before arrival, from 09:00.
  if (v_now at time zone 'Europe/Berlin')::time >= time '09:00' then
    for v_order in
      select o.* from public.orders o
       where o.status in ('unverified', 'confirmed')
         and o.starts_at >= private.berlin_at(v_today + 1, time '00:00')
         and o.starts_at < private.berlin_at(v_today + 2, time '00:00')
         and o.email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
         and not exists (select 1 from public.outbox m where m.order_id = o.id and m.kind = 'arrival_reminder')
       order by o.starts_at
       for update of o skip locked
    loop
      v_locale := private.order_locale(v_order);
      v_en := v_locale = 'en';
      v_link := v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id;
      v_pay := v_order.payment_status = 'pending' and v_order.price_cents > 0;
      perform private.queue_mail(
        'arrival_reminder', v_order.email, v_locale,
        case when v_en
          then format('See you tomorrow: berth %s, %s (%s)', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'en'), v_order.booking_number)
          else format('Bis morgen: Liegeplatz %s, %s (%s)', v_order.place_snapshot ->> 'name', private.format_berlin(v_order.starts_at, 'de'), v_order.booking_number) end,
        private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
          case when v_en then 'your stay at Hafen Düsseldorf begins tomorrow.' else 'morgen beginnt Ihr Aufenthalt im Hafen Düsseldorf.' end,
          '',
          case when v_en then 'Berth: ' else 'Liegeplatz: ' end || (v_order.place_snapshot ->> 'name')
            || coalesce(case when v_en then ' (pier ' else ' (Steg ' end || (v_order.place_snapshot ->> 'pier') || ')', ''),
          case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(v_order.starts_at, v_locale),
          case when v_en then 'Departure: ' else 'Abreise: ' end || private.format_berlin(v_order.ends_at, v_locale),
          case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
          '',
          case when v_en
            then 'Check in on your booking page from the arrival day: ' || v_link || '/check-in'
            else 'Einchecken können Sie ab dem Anreisetag auf Ihrer Buchungsseite: ' || v_link || '/check-in' end,
          case when v_en
            then 'After checking in, the page shows the door code for the sanitary building and the wifi, also late in the evening.'
            else 'Nach dem Check-in zeigt die Seite den Türcode für das Sanitärgebäude und das WLAN, auch spät am Abend.' end,
          case when v_order.status = 'unverified' then case when v_en
            then 'Please confirm your e-mail address first (log in with the code we send you); only then can you check in.'
            else 'Bitte bestätigen Sie vorher Ihre E-Mail-Adresse (Anmeldung mit dem Code, den wir Ihnen senden); erst dann ist der Check-in möglich.' end end,
          case when v_pay then case when v_en
            then 'Still to pay: ' || private.format_eur(v_order.price_cents, 'en') || ' (online on your booking page or at the harbour office).'
            else 'Noch zu bezahlen: ' || private.format_eur(v_order.price_cents, 'de') || ' (online auf Ihrer Buchungsseite oder im Hafenbüro).' end end,
          '',
          case when v_en then 'How to find us: ' else 'So finden Sie uns: ' end || v_address,
          case when v_en then 'Questions? Simply reply to this e-mail.' else 'Fragen? Antworten Sie einfach auf diese E-Mail.' end)),
        '[]'::jsonb, private.setting('harbour_email'), v_order.id);
      v_count := v_count + 1;
    end loop;
  end if;

  -- Three hours before an unverified or unpaid booking lapses (not for one booked within the
  -- last hour: its confirmation has just said so).
  for v_order in
    select o.* from public.orders o
     where o.status in ('unverified', 'confirmed') and o.payment_status = 'pending'
       and o.expires_at > v_now and o.expires_at <= v_now + interval '3 hours'
       and o.created_at <= v_now - interval '1 hour'
       and o.email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'
       and not exists (select 1 from public.outbox m where m.order_id = o.id and m.kind = 'expiry_warning')
     order by o.expires_at
     for update of o skip locked
  loop
    v_locale := private.order_locale(v_order);
    v_en := v_locale = 'en';
    v_link := v_site || case when v_en then '/en' else '' end || '/order/' || v_order.id;
    v_pay := v_order.payment_mode = 'online_required';
    perform private.queue_mail(
      'expiry_warning', v_order.email, v_locale,
      case when v_en
        then format('Your booking %s lapses at %s', v_order.booking_number, private.format_berlin(v_order.expires_at, 'en'))
        else format('Ihre Buchung %s verfällt am %s', v_order.booking_number, private.format_berlin(v_order.expires_at, 'de')) end,
      private.mail_text(v_locale, concat_ws(' ', v_order.person ->> 'first_name', v_order.person ->> 'last_name'), concat_ws(E'\n',
        case when v_pay then case when v_en
            then format('your booking of berth %s is not paid yet. Please pay online by %s, otherwise it lapses and the berth is released:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'en'))
            else format('Ihre Buchung von Liegeplatz %s ist noch nicht bezahlt. Bitte bezahlen Sie bis %s online, sonst verfällt sie und der Liegeplatz wird freigegeben:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'de')) end
          else case when v_en
            then format('your e-mail address for the booking of berth %s is not confirmed yet. Please confirm it by %s (log in with your e-mail address and the code we send you), otherwise the booking lapses and the berth is released:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'en'))
            else format('Ihre E-Mail-Adresse für die Buchung von Liegeplatz %s ist noch nicht bestätigt. Bitte bestätigen Sie sie bis %s (Anmeldung mit Ihrer E-Mail-Adresse und dem Code, den wir Ihnen senden), sonst verfällt die Buchung und der Liegeplatz wird freigegeben:',
                        v_order.place_snapshot ->> 'name', private.format_berlin(v_order.expires_at, 'de')) end
        end,
        v_link,
        '',
        case when v_en then 'Booking number: ' else 'Buchungsnummer: ' end || v_order.booking_number,
        case when v_en then 'Arrival: ' else 'Ankunft: ' end || private.format_berlin(v_order.starts_at, v_locale))),
      '[]'::jsonb, private.setting('harbour_email'), v_order.id);
    v_count := v_count + 1;
  end loop;
  return v_count;
end
$$;
comment on function private.send_guest_reminders() is 'Scheduled every 15 minutes: queues the arrival reminder (the day before, from 09:00 Berlin) and the warning 3 hours before an unverified or unpaid booking lapses, each once per order; returns how many were queued.';
revoke execute on function private.send_guest_reminders() from public;
