-- The timeline's pre-check (issue 40, item 3): public.move_precheck answers, for a stay and a
-- period, each berth's verdict, and the moves themselves (move_booking for the same dates,
-- reschedule_booking for new dates) do exactly what it says: a berth it calls 'fits' takes the
-- stay, every other verdict is the move's refusal (too small, day/overnight berth, long-term
-- held, blocked, occupied). A lapsed unpaid reservation gives way in both. Only staff ask.
begin;
select plan(16);
select private.freeze_clock('2027-06-01 12:00+02');

insert into public.places (name, pier, width, length, one_day, archived) values
  ('PCHOME', 'P', 4, 13, false, false),   -- the stay's berth
  ('PCFIT', 'P', 4, 13, false, false),    -- free, big enough
  ('PCSMALL', 'P', 2.5, 8, false, false), -- too short and too narrow for a 10 x 3 m boat
  ('PCOCC', 'P', 4, 13, false, false),    -- another stay on 21-22 June
  ('PCBLK', 'P', 4, 13, false, false),    -- maintenance 20-21 June
  ('PCLT', 'P', 4, 13, false, false),     -- a long-term holder from 21 June
  ('PCDAY', 'P', 4, 13, true, false),     -- day guests only
  ('PCLAPSE', 'P', 4, 13, false, false);  -- an unverified reservation that lapses
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
insert into public.long_term_holders (place_id, starts_on, boat_name) values (tests.place_id('PCLT'), '2027-06-21', 'Dauer');

-- The customer's unverified reservation on PCLAPSE (it lapses unpaid within a day).
select tests.authenticate_as('customer');
select public.create_booking(tests.place_id('PCLAPSE'), 'overnight', '2027-06-20', '{"name": "Lapse", "length": 8, "width": 3}',
  '{"first_name": "Lara", "last_name": "Lapse", "street": "Rheinufer 1", "postal_code": "40213", "city": "Düsseldorf"}', '2027-06-23');
select tests.authenticate_as('harbour');
-- Moved: 10 x 3 m, 20-22 June on PCHOME.
select public.staff_create_booking(tests.place_id('PCHOME'), 'overnight', '2027-06-20', '{"name": "Moved", "length": 10, "width": 3}',
  '{"first_name": "Mia", "last_name": "Moved"}', '2027-06-22');
select public.staff_create_booking(tests.place_id('PCOCC'), 'overnight', '2027-06-21', '{"name": "Other", "length": 8, "width": 3}',
  '{"first_name": "Otto", "last_name": "Other"}', '2027-06-22');
select public.add_berth_block(tests.place_id('PCBLK'), '2027-06-20 00:00+02', '2027-06-21 12:00+02', 'maintenance', 'Steg');
select set_config('tests.' || lower(boat ->> 'name'), id::text, true) from public.orders;
select tests.clear_authentication();
-- The customer's reservation lapses unpaid on 2 June (as an unverified or unpaid online one does).
update public.orders set expires_at = '2027-06-02 12:00+02' where id = current_setting('tests.lapse')::uuid;
select private.freeze_clock('2027-06-03 12:00+02');
select results_eq($$ select status::text in ('unverified', 'confirmed'), payment_status::text from public.orders where id = current_setting('tests.lapse')::uuid $$,
  $$ values (true, 'pending') $$, 'the lapsed reservation is still open on the berth until a booking function expires it');

-- What a move does, rolled back: 'moved', or the refusal as SQLSTATE/message.
create function pg_temp.outcome(p_sql text) returns text language plpgsql as $$
declare
  v_state text;
  v_message text;
begin
  begin
    execute p_sql;
    raise exception 'moved' using errcode = 'P0001';
  exception when others then
    get stacked diagnostics v_state = returned_sqlstate, v_message = message_text;
    return case when v_message = 'moved' then 'moved' else v_state || ' ' || v_message end;
  end;
end
$$;
-- The refusal a verdict stands for (what the move must do for it).
create function pg_temp.expected(p_verdict text) returns text language sql as $$
  select case p_verdict
    when 'fits' then 'moved'
    when 'too_small' then '22023 boat_does_not_fit'
    when 'day_stay_not_allowed' then '22023 day_stay_not_allowed'
    when 'day_guests_only' then '22023 day_guests_only'
    else '23P01 berth_no_longer_available' end
$$;

-- ---------------------------------------------------------------- only staff
select tests.authenticate_as('customer');
select throws_ok($$ select * from public.move_precheck(current_setting('tests.moved')::uuid) $$,
  '42501', 'staff_only', 'a guest cannot ask');
select tests.authenticate_as_anon();
select throws_ok($$ select * from public.move_precheck(current_setting('tests.moved')::uuid) $$,
  '42501', null, 'nor can an anonymous caller');

-- ---------------------------------------------------------------- the same dates: each case
select tests.authenticate_as('harbour');
create temp table same_dates as
  select p.name, c.verdict
    from public.move_precheck(current_setting('tests.moved')::uuid) c join public.places p on p.id = c.place_id
   where p.name like 'PC%';
select results_eq($$ select name, verdict from same_dates order by name $$,
  $$ values ('PCBLK', 'blocked'), ('PCDAY', 'day_guests_only'), ('PCFIT', 'fits'), ('PCHOME', 'fits'), ('PCLAPSE', 'fits'),
            ('PCLT', 'long_term'), ('PCOCC', 'occupied'), ('PCSMALL', 'too_small') $$,
  'each berth''s verdict for the stay''s own dates (20-22 June): fits, too small, occupied, blocked, long-term, day berth; a lapsed reservation gives way');
select is(pg_temp.outcome(format('select public.move_booking(%L, %L, false)', current_setting('tests.moved'), tests.place_id(name))),
  pg_temp.expected(verdict), format('move_booking to %s does what the pre-check said (%s)', name, verdict))
  from same_dates where name in ('PCFIT', 'PCSMALL', 'PCOCC', 'PCBLK', 'PCLT', 'PCDAY', 'PCLAPSE') order by name;

-- ---------------------------------------------------------------- other dates (reschedule_booking)
-- 23-25 June: PCOCC and PCBLK are free then, the long-term holder has PCLT from the 21st.
create temp table new_dates as
  select p.name, c.verdict
    from public.move_precheck(current_setting('tests.moved')::uuid, '2027-06-23', '2027-06-25') c join public.places p on p.id = c.place_id
   where p.name like 'PC%';
select results_eq($$ select name, verdict from new_dates where name in ('PCOCC', 'PCBLK', 'PCLT', 'PCSMALL') order by name $$,
  $$ values ('PCBLK', 'fits'), ('PCLT', 'long_term'), ('PCOCC', 'fits'), ('PCSMALL', 'too_small') $$,
  'for new dates the verdicts follow the new period');
select is((select count(*)::int from new_dates n
            where pg_temp.outcome(format('select public.reschedule_booking(%L, %L, %L, %L, false)', current_setting('tests.moved'), '2027-06-23', '2027-06-25', tests.place_id(n.name)))
                  is distinct from pg_temp.expected(n.verdict)), 0,
  'reschedule_booking to each berth on the new dates does what the pre-check said');
select throws_ok($$ select * from public.move_precheck(current_setting('tests.moved')::uuid, '2027-05-20', '2027-05-22') $$,
  '22023', 'period_in_past', 'dates the move refuses are refused by the pre-check with the same error');
select tests.clear_authentication();

-- ---------------------------------------------------------------- nothing changed; a real move agrees
select results_eq($$ select place_id, starts_at from public.orders where id = current_setting('tests.moved')::uuid $$,
  $$ values (tests.place_id('PCHOME'), '2027-06-20 14:00+02'::timestamptz) $$, 'asking and the rolled-back moves changed nothing');
select tests.authenticate_as('harbour');
select public.move_booking(current_setting('tests.moved')::uuid, tests.place_id('PCLAPSE'), false);
select tests.clear_authentication();
select results_eq($$ select o.place_id, l.status::text from public.orders o, public.orders l
                     where o.id = current_setting('tests.moved')::uuid and l.id = current_setting('tests.lapse')::uuid $$,
  $$ values (tests.place_id('PCLAPSE'), 'expired') $$, 'the move onto the lapsed reservation''s berth went through and expired it');

select * from finish();
rollback;
