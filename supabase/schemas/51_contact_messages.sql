-- Contact messages and service requests: the public forms (throttled per client address),
-- their e-mails to the harbour, staff marking them done, and staff answering them (the reply
-- thread, message_replies; long-term applications use the same thread, 60_long_term.sql).

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
