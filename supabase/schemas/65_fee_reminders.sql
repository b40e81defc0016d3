-- Reminders for overdue long-term fees and the door-code grace period (issue 42, deliverable 5;
-- docs/adr/0051-fee-reminders-and-door-code.md). A fee (63_long_term_fees.sql) is overdue when
-- money is still owed on it (private.fee_balance: balance > 0), no debit of it is in flight, and
-- the day the money was expected has passed: its due day, for a SEPA fee the later collection
-- day (the pre-notification may move it). A failed or returned debit leaves the fee owed again,
-- so it counts from that same day. A daily job (99_cron.sql) sends a friendly first reminder
-- fee_reminder_first_days after that day and a second one fee_reminder_second_days after the
-- first; each once per fee and stage (public.fee_reminders, append-only). A holder whose fee is
-- overdue longer than fee_door_code_grace_days (63) no longer gets the door code and wifi
-- (45_harbour_access.sql asks private.fee_access_withheld), and the door-code page says why.

insert into private.app_settings (key, value) values
  -- Days after the expected payment day before the first (friendly) reminder.
  ('fee_reminder_first_days', '3'),
  -- Days after the first reminder before the second one.
  ('fee_reminder_second_days', '14')
on conflict (key) do nothing;

-- ---------------------------------------------------------------------------------------------
-- Which fees are overdue, by how many days (Berlin calendar days), and how much is open.
create function private.overdue_fees(p_user_id uuid default null)
returns table (fee_id uuid, user_id uuid, expected_on date, days_overdue integer, balance_cents bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, f.user_id, x.expected_on,
         (private.berlin_date(private.now()) - x.expected_on)::integer,
         (b ->> 'balance_cents')::bigint
    from public.long_term_fees f
    cross join lateral (select greatest(f.due_on, coalesce(f.collect_on, f.due_on)) as expected_on) x
    cross join lateral (select private.fee_balance(f.id) as b) y
   where (p_user_id is null or f.user_id = p_user_id)
     and x.expected_on < private.berlin_date(private.now())
     and coalesce(f.debit_state, '') not in ('requested', 'processing')
     and (b ->> 'balance_cents')::bigint > 0
$$;
comment on function private.overdue_fees(uuid) is 'The overdue fees (of one holder, or all): money still owed, no debit in flight, past the due day (SEPA: the later collection day); days overdue in Berlin calendar days.';
revoke execute on function private.overdue_fees(uuid) from public;

-- ---------------------------------------------------------------------------------------------
-- The reminders sent: one row per fee and stage, never changed (the office can tell what the
-- holder was told and when).
create table public.fee_reminders (
  id bigint generated always as identity primary key,
  fee_id uuid not null references public.long_term_fees (id),
  stage smallint not null check (stage in (1, 2)),
  sent_on date not null,
  sent_at timestamptz not null default now(),
  days_overdue integer not null check (days_overdue > 0),
  balance_cents bigint not null check (balance_cents > 0),
  recipient text,
  outbox_id bigint,
  unique (fee_id, stage)
);

alter table public.fee_reminders enable row level security;

comment on table public.fee_reminders is 'The payment reminders sent for overdue long-term fees: stage 1 (friendly) and 2, once each per fee, with the day, days overdue and open amount then. Append-only; written only by private.send_fee_reminders. Holders read those of their own fees, staff all.';

create policy "fee_reminders: holder reads own, staff all" on public.fee_reminders
  for select to authenticated
  using ((select private.is_staff())
         or exists (select 1 from public.long_term_fees f where f.id = fee_id and f.user_id = (select auth.uid())));

revoke all on public.fee_reminders from anon;

revoke insert, update, delete, truncate, references, trigger on public.fee_reminders from authenticated, service_role;

create trigger fee_reminders_immutable before update or delete on public.fee_reminders
  for each row execute function private.refuse_change('fee_reminders_immutable', 'Reminders sent are a record: they are never changed.');

create trigger fee_reminders_no_truncate before truncate on public.fee_reminders
  for each statement execute function private.refuse_change('fee_reminders_immutable', 'Reminders sent are a record: they are never changed.');

-- ---------------------------------------------------------------------------------------------
-- The reminder e-mail of one stage, in the holder's language.
create function private.queue_fee_reminder_mail(p_fee public.long_term_fees, p_stage integer, p_days integer, p_balance bigint)
returns bigint
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_recipient jsonb := private.fee_recipient(p_fee.user_id);
  v_locale text := private.fee_locale(p_fee.user_id);
  v_en boolean := private.fee_locale(p_fee.user_id) = 'en';
  v_number text := coalesce((select i.invoice_number from public.invoices i where i.id = p_fee.invoice_id), p_fee.reference);
  v_iban text := coalesce(private.setting('invoice_iban'), '');
  v_grace integer := private.setting_int('fee_door_code_grace_days', 14);
  v_due text := case when v_en then to_char(p_fee.due_on, 'FMDD Mon YYYY') else to_char(p_fee.due_on, 'DD.MM.YYYY') end;
begin
  if coalesce(v_recipient ->> 'email', '') !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    return null;
  end if;
  return private.queue_mail('fee_reminder', v_recipient ->> 'email', v_locale,
    case when v_en then format(case p_stage when 1 then 'Payment reminder: invoice %s' else 'Second payment reminder: invoice %s' end, v_number)
         else format(case p_stage when 1 then 'Zahlungserinnerung: Rechnung %s' else '2. Zahlungserinnerung: Rechnung %s' end, v_number) end,
    private.mail_text(v_locale, concat_ws(' ', v_recipient ->> 'first_name', v_recipient ->> 'last_name'), concat_ws(E'\n',
      case when v_en then
             case p_stage when 1 then format('perhaps it slipped your attention: the berth fee of invoice %s (contract %s, instalment %s of %s), due on %s, is still open: %s.',
                                             v_number, p_fee.reference, p_fee.instalment, p_fee.instalments, v_due, private.format_eur(p_balance, 'en'))
                          else format('we have not yet received the berth fee of invoice %s (contract %s, instalment %s of %s), due on %s and now %s days overdue. Open: %s.',
                                      v_number, p_fee.reference, p_fee.instalment, p_fee.instalments, v_due, p_days, private.format_eur(p_balance, 'en')) end
           else
             case p_stage when 1 then format('vielleicht ist es Ihnen entgangen: Die Liegeplatzgebühr zu Rechnung %s (Vertrag %s, Rate %s von %s), fällig am %s, ist noch offen: %s.',
                                             v_number, p_fee.reference, p_fee.instalment, p_fee.instalments, v_due, private.format_eur(p_balance, 'de'))
                          else format('die Liegeplatzgebühr zu Rechnung %s (Vertrag %s, Rate %s von %s), fällig am %s, ist seit %s Tagen überfällig und noch nicht bei uns eingegangen. Offen: %s.',
                                      v_number, p_fee.reference, p_fee.instalment, p_fee.instalments, v_due, p_days, private.format_eur(p_balance, 'de')) end
      end,
      '',
      case when v_en then format('Please transfer the amount to IBAN %s with the invoice number %s as reference.', v_iban, v_number)
           else format('Bitte überweisen Sie den Betrag auf IBAN %s mit der Rechnungsnummer %s als Verwendungszweck.', v_iban, v_number) end,
      case when v_en then format('Please note: while a fee is more than %s days overdue, the app shows you the door code and wifi only again once the payment has arrived.', v_grace)
           else format('Bitte beachten Sie: Ist eine Gebühr mehr als %s Tage überfällig, zeigt Ihnen die App den Türcode und das WLAN erst nach Zahlungseingang wieder an.', v_grace) end,
      case when v_en then 'If you have paid in the meantime, please disregard this e-mail. Questions? Reply to this e-mail or call the harbour office.'
           else 'Haben Sie inzwischen gezahlt, betrachten Sie diese E-Mail bitte als gegenstandslos. Fragen? Antworten Sie auf diese E-Mail oder rufen Sie im Hafenbüro an.' end)),
    '[]'::jsonb, private.setting('harbour_email'), null);
end
$$;
comment on function private.queue_fee_reminder_mail(public.long_term_fees, integer, integer, bigint) is 'Queues the first (friendly) or second payment reminder of an overdue fee to its holder, in their language; null when the holder has no e-mail address.';
revoke execute on function private.queue_fee_reminder_mail(public.long_term_fees, integer, integer, bigint) from public;

-- The daily job: the first reminder fee_reminder_first_days after the expected payment day, the
-- second fee_reminder_second_days after the first; each once per fee and stage. Run twice a day
-- (or twice at once: one run waits for the other) it sends nothing new.
create function private.send_fee_reminders()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_today date := private.berlin_date(private.now());
  v_first integer := greatest(private.setting_int('fee_reminder_first_days', 3), 1);
  v_second integer := greatest(private.setting_int('fee_reminder_second_days', 14), 1);
  v_sent integer := 0;
  v_fee public.long_term_fees;
  r record;
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('private.send_fee_reminders'));
  for r in
    select o.fee_id, o.days_overdue, o.balance_cents,
           case when s1.id is null then 1 else 2 end as stage
      from private.overdue_fees(null) o
      left join public.fee_reminders s1 on s1.fee_id = o.fee_id and s1.stage = 1
      left join public.fee_reminders s2 on s2.fee_id = o.fee_id and s2.stage = 2
     where (s1.id is null and o.days_overdue >= v_first)
        or (s1.id is not null and s2.id is null and s1.sent_on <= v_today - v_second)
     order by o.fee_id
  loop
    select * into v_fee from public.long_term_fees f where f.id = r.fee_id;
    insert into public.fee_reminders (fee_id, stage, sent_on, days_overdue, balance_cents, recipient, outbox_id)
    values (r.fee_id, r.stage, v_today, r.days_overdue, r.balance_cents,
            private.fee_recipient(v_fee.user_id) ->> 'email',
            private.queue_fee_reminder_mail(v_fee, r.stage, r.days_overdue, r.balance_cents));
    v_sent := v_sent + 1;
  end loop;
  return v_sent;
end
$$;
comment on function private.send_fee_reminders() is 'Daily job (99_cron.sql): sends the first and second payment reminders that are due, once per fee and stage; returns how many it sent.';
revoke execute on function private.send_fee_reminders() from public;

-- ---------------------------------------------------------------------------------------------
-- The door-code rule: a holder with a fee overdue longer than fee_door_code_grace_days.
create function private.fee_access_withheld(p_user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select p_user_id is not null and exists (
    select 1 from private.overdue_fees(p_user_id) o
     where o.days_overdue > private.setting_int('fee_door_code_grace_days', 14))
$$;
comment on function private.fee_access_withheld(uuid) is 'Whether a holder has a fee overdue longer than the setting fee_door_code_grace_days: then harbour_access() withholds the door code and wifi (staff are never withheld).';
revoke execute on function private.fee_access_withheld(uuid) from public;
grant execute on function private.fee_access_withheld(uuid) to authenticated, service_role;

-- What the caller's door-code page shows: their overdue fees, the grace period and whether the
-- codes are withheld now (or from which day they will be). Null when nothing is overdue.
create function private.my_fee_access_hold()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with o as (
    select o.*, f.reference, f.instalment, f.instalments, f.due_on, i.invoice_number
      from private.overdue_fees((select auth.uid())) o
      join public.long_term_fees f on f.id = o.fee_id
      left join public.invoices i on i.id = f.invoice_id
  ), g as (select private.setting_int('fee_door_code_grace_days', 14) as days)
  select case when (select auth.uid()) is null or not exists (select 1 from o) then null else
    jsonb_build_object(
      'withheld', not private.is_staff() and exists (select 1 from o where o.days_overdue > g.days),
      'grace_days', g.days,
      'withheld_from', (select min(o.expected_on) + g.days + 1 from o),
      'open_cents', (select sum(o.balance_cents) from o),
      'iban', coalesce(private.setting('invoice_iban'), ''),
      'fees', (select jsonb_agg(jsonb_build_object(
                 'reference', o.reference, 'instalment', o.instalment, 'instalments', o.instalments,
                 'invoice_number', o.invoice_number, 'due_on', o.due_on, 'days_overdue', o.days_overdue,
                 'balance_cents', o.balance_cents) order by o.expected_on, o.reference, o.instalment) from o))
  end
  from g
$$;
comment on function private.my_fee_access_hold() is 'The rule behind public.my_fee_access_hold (security definer, not exposed by the API).';
revoke execute on function private.my_fee_access_hold() from public;
grant execute on function private.my_fee_access_hold() to authenticated, service_role;

create function public.my_fee_access_hold()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select private.my_fee_access_hold()
$$;
comment on function public.my_fee_access_hold() is 'The caller''s overdue long-term fees for the door-code and wifi pages: {withheld, grace_days, withheld_from, open_cents, iban, fees[]}; null when none is overdue.';
revoke execute on function public.my_fee_access_hold() from anon, public;
grant execute on function public.my_fee_access_hold() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Back office: the overdue fees with their reminder stage, days overdue and whether the holder's
-- door code is withheld (staff).
create function private.overdue_fees_overview()
returns table (
  fee_id uuid, reference text, instalment smallint, instalments smallint, invoice_number text,
  user_id uuid, holder_name text, email text, due_on date, expected_on date, days_overdue integer,
  balance_cents bigint, payment_method text, debit_state text, reminder_stage smallint,
  last_reminder_on date, door_code_withheld boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    select o.fee_id, f.reference, f.instalment, f.instalments, i.invoice_number,
           f.user_id, nullif(concat_ws(' ', r ->> 'first_name', r ->> 'last_name'), ''), r ->> 'email',
           f.due_on, o.expected_on, o.days_overdue, o.balance_cents, f.payment_method, f.debit_state,
           coalesce(max(m.stage), 0)::smallint, max(m.sent_on),
           o.days_overdue > private.setting_int('fee_door_code_grace_days', 14)
      from private.overdue_fees(null) o
      join public.long_term_fees f on f.id = o.fee_id
      left join public.invoices i on i.id = f.invoice_id
      left join public.fee_reminders m on m.fee_id = o.fee_id
      cross join lateral (select private.fee_recipient(f.user_id) as r) x
     group by o.fee_id, f.id, i.invoice_number, o.expected_on, o.days_overdue, o.balance_cents, x.r
     order by o.days_overdue desc, f.reference, f.instalment;
end
$$;
comment on function private.overdue_fees_overview() is 'The rule behind public.overdue_fees_overview (security definer, not exposed by the API).';
revoke execute on function private.overdue_fees_overview() from public;
grant execute on function private.overdue_fees_overview() to authenticated, service_role;

create function public.overdue_fees_overview()
returns table (
  fee_id uuid, reference text, instalment smallint, instalments smallint, invoice_number text,
  user_id uuid, holder_name text, email text, due_on date, expected_on date, days_overdue integer,
  balance_cents bigint, payment_method text, debit_state text, reminder_stage smallint,
  last_reminder_on date, door_code_withheld boolean)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.overdue_fees_overview()
$$;
comment on function public.overdue_fees_overview() is 'Staff: every overdue long-term fee (most days overdue first) with its holder, open amount, reminder stage (0 none, 1, 2), last reminder day and whether the holder''s door code is withheld.';
revoke execute on function public.overdue_fees_overview() from anon, public;
grant execute on function public.overdue_fees_overview() to authenticated, service_role;
