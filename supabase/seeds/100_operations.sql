-- Demo data for the back office, after seed.sql: long-term holders on a few berths with their
-- history, applications on the waiting list, staff hours of this and last month, contact
-- messages and service requests, and a whole last season of stays (April to October) so the
-- admin reports show something. Deterministic: the same day of seeding gives the same data.

-- ---------------------------------------------------------------- long-term holders
insert into public.long_term_holders (place_id, user_id, email, first_name, last_name, starts_on, ends_on,
                                      boat_name, boat_tag, boat_length, boat_width, note)
select pl.id, h.user_id, h.email, h.first_name, h.last_name, h.starts_on, h.ends_on, h.boat_name, h.boat_tag, h.boat_length, h.boat_width, h.note
from (values
  ('D08', null::uuid, 'peter.brandt@example.org', 'Peter', 'Brandt',
   make_date(extract(year from now())::int - 1, 4, 1), null::date, 'Nordlicht', 'D-4410', 14.8, 4.2, 'Seit 2019 am Steg D'),
  ('D09', null, 'familie.yilmaz@example.org', 'Derya', 'Yılmaz',
   make_date(extract(year from now())::int, 4, 1), null, 'Bosporus', 'D-7781', 15.2, 4.3, 'Saisonvertrag'),
  ('E07', 'a0000000-0000-4000-8000-000000000005'::uuid, 'jan.devries@hafen.test', 'Jan', 'de Vries',
   make_date(extract(year from now())::int + 1, 4, 1), null, 'Vrijheid', 'NL-4411', 14.6, 4.4, 'Ab der nächsten Saison'),
  ('E08', null, 'hans.albers@example.org', 'Hans', 'Albers',
   make_date(extract(year from now())::int - 2, 4, 1), make_date(extract(year from now())::int - 1, 10, 31), 'Große Freiheit', 'HH-1', 22.0, 5.6, 'Ausgelaufen')
) as h(place, user_id, email, first_name, last_name, starts_on, ends_on, boat_name, boat_tag, boat_length, boat_width, note)
join public.places pl on pl.name = h.place;

insert into public.long_term_holder_events (holder_id, place_id, user_id, action, starts_on, ends_on, holder, actor, created_at)
select h.id, h.place_id, h.user_id, 'assigned', h.starts_on, null, to_jsonb(h), 'a0000000-0000-4000-8000-000000000001'::uuid,
       h.starts_on - 30
from public.long_term_holders h
union all
select h.id, h.place_id, h.user_id, 'removed', h.starts_on, h.ends_on, to_jsonb(h), 'a0000000-0000-4000-8000-000000000001'::uuid,
       h.ends_on
from public.long_term_holders h where h.ends_on is not null;

-- ---------------------------------------------------------------- applications (waiting list)
insert into public.long_term_applications (place_id, user_id, email, first_name, last_name, phone, locale, boat,
                                           desired_start, message, status, answer, answered_at, answered_by, created_at)
select pl.id, a.user_id, a.email, a.first_name, a.last_name, a.phone, a.locale, a.boat, a.desired_start, a.message,
       a.status, a.answer,
       case when a.status <> 'open' then now() - interval '20 days' end,
       case when a.status <> 'open' then 'a0000000-0000-4000-8000-000000000001'::uuid end,
       now() - a.age
from (values
  (null::text, null::uuid, 'marie.keller@example.org', 'Marie', 'Keller', '+49 171 5550201', 'de',
   '{"name": "Sonnenschein", "length": 10.5, "width": 3.5}'::jsonb, null::date, 'Gern an Steg C, ganzjährig.', 'declined',
   'Leider ist Steg C bis auf Weiteres vergeben.', interval '60 days'),
  ('D10', 'a0000000-0000-4000-8000-000000000003'::uuid, 'kunde@hafen.test', 'Klaus', 'Kunde', '+49 172 5550101', 'de',
   '{"name": "Rheinperle", "length": 9.4, "width": 3.2, "tag": "D-1234"}'::jsonb, null, 'Ab April für die ganze Saison.', 'open', null, interval '45 days'),
  (null, null, 'tom.baker@example.org', 'Tom', 'Baker', '+44 7700 900123', 'en',
   '{"name": "Sea Breeze", "length": 12.1, "width": 3.9}'::jsonb, null, 'Looking for a seasonal berth from next spring.', 'open', null, interval '30 days'),
  (null, 'a0000000-0000-4000-8000-000000000006'::uuid, 'lisa.meyer@hafen.test', 'Lisa', 'Meyer', '+49 151 5550104', 'de',
   '{"name": "Lotte", "length": 7.2, "width": 2.6, "tag": "D-9087"}'::jsonb, null, null, 'open', null, interval '12 days')
) as a(place, user_id, email, first_name, last_name, phone, locale, boat, desired_start, message, status, answer, age)
left join public.places pl on pl.name = a.place
order by a.age desc;

-- ---------------------------------------------------------------- working hours
-- Heinz (harbour) works weekdays, Andrea (admin) Saturdays, in this and the last month up to today.
insert into public.working_hours (user_id, work_date, start_time, end_time, break_minutes, note)
select 'a0000000-0000-4000-8000-000000000002'::uuid, d::date,
       time '07:30' + (extract(day from d)::int % 3) * interval '30 minutes',
       time '16:00' + (extract(day from d)::int % 4) * interval '15 minutes',
       30, case when extract(day from d)::int % 7 = 0 then 'Stege kontrolliert' end
from generate_series(date_trunc('month', now() at time zone 'Europe/Berlin') - interval '1 month',
                     (now() at time zone 'Europe/Berlin')::date - 1, interval '1 day') d
where extract(isodow from d) between 1 and 5
union all
select 'a0000000-0000-4000-8000-000000000001'::uuid, d::date, time '09:00', time '13:00', 0, 'Büro'
from generate_series(date_trunc('month', now() at time zone 'Europe/Berlin') - interval '1 month',
                     (now() at time zone 'Europe/Berlin')::date - 1, interval '1 day') d
where extract(isodow from d) = 6;

-- ---------------------------------------------------------------- messages
insert into public.contact_messages (kind, service, name, email, phone, locale, message, preferred_date, boat, user_id,
                                     status, done_at, done_by, created_at)
values
  ('contact', null, 'Sabine Roth', 'sabine.roth@example.org', '+49 211 5550301', 'de',
   'Haben Sie an Pfingsten noch einen Platz für ein 11-m-Boot? Wir wären zu viert.', null, null, null,
   'open', null, null, now() - interval '2 days'),
  ('contact', null, 'Pieter Jansen', 'pieter.jansen@example.org', null, 'en',
   'Is there a pump-out station in the harbour, and until what time is the office open?', null, null, null,
   'done', now() - interval '5 days', 'a0000000-0000-4000-8000-000000000002', now() - interval '6 days'),
  ('service_request', 'boat_lift', 'Klaus Kunde', 'kunde@hafen.test', '+49 172 5550101', 'de',
   'Bitte die Rheinperle zum Winterlager kranen, am liebsten vormittags.', ((now() at time zone 'Europe/Berlin')::date + 10), 
   '{"name": "Rheinperle", "length": 9.4, "width": 3.2}'::jsonb, 'a0000000-0000-4000-8000-000000000003',
   'open', null, null, now() - interval '1 day'),
  ('service_request', 'diesel', 'Jan de Vries', 'jan.devries@hafen.test', '+31 6 55501030', 'en',
   'Could you fill up the Vrijheid with about 200 litres of diesel?', ((now() at time zone 'Europe/Berlin')::date + 1),
   '{"name": "Vrijheid", "length": 14.6, "width": 4.4}'::jsonb, 'a0000000-0000-4000-8000-000000000005',
   'open', null, null, now() - interval '3 hours'),
  ('service_request', 'mechanic', 'Sabine Roth', 'sabine.roth@example.org', null, 'de',
   'Der Außenborder springt nicht mehr an. Kann sich jemand das ansehen?', null, null, null,
   'done', now() - interval '20 days', 'a0000000-0000-4000-8000-000000000002', now() - interval '24 days');

-- ---------------------------------------------------------------- last season
-- Stays from April to October of the last season that has begun at least seven months ago, on
-- the berths seed.sql leaves free then; guests from a pool of 400 addresses, mostly German and
-- Dutch; 5 % no-shows, 5 % cancelled, some sale codes.
do $$
declare
  v_year int := extract(year from (now() at time zone 'Europe/Berlin') - interval '7 months')::int;
  v_first date := make_date(v_year, 4, 1);
  v_last date := least(make_date(v_year, 10, 31), (now() at time zone 'Europe/Berlin')::date - 3);
  v_place public.places;
  v_day date;
  v_h int;
  v_n int := 0;
  v_nights int;
  v_kind public.order_kind;
  v_status public.order_status;
  v_code text;
  v_code_value int;
  v_length numeric;
  v_width numeric;
  v_start timestamptz;
  v_end timestamptz;
  v_quote jsonb;
  v_guest int;
  v_country text;
  v_first_name text;
  v_order uuid;
begin
  for v_place in
    select * from public.places p
    where not p.archived
      and p.name not in ('B05', 'B06', 'B08', 'C05', 'C08', 'D03', 'D04', 'A07', 'A12', 'E02', 'D08', 'D09', 'E07', 'E08')
    order by p.name
  loop
    v_day := v_first + abs(hashtext(v_place.name)) % 4;
    while v_day <= v_last loop
      v_n := v_n + 1;
      v_h := abs(hashtext(v_place.name || ':' || v_day::text));
      -- Day-guest berths take day stays only, the others overnight stays (as create_booking).
      v_kind := case when v_place.one_day then 'day' else 'overnight' end;
      v_nights := case when v_kind = 'day' then 0 when v_h % 10 = 0 then 7 else 1 + v_h % 4 end;
      exit when v_kind = 'overnight' and v_day + v_nights > v_last + 1;
      v_status := case when v_h % 20 = 7 then 'cancelled' when v_h % 20 = 11 then 'confirmed' else 'completed' end;
      v_code := case when v_kind = 'overnight' and v_h % 10 = 3 then 'RHEIN5' when v_kind = 'overnight' and v_h % 30 = 5 then 'FREUNDE' end;
      v_code_value := case v_code when 'RHEIN5' then 500 when 'FREUNDE' then 0 end;
      v_length := greatest(1.0, round(v_place.length - (v_h % 25) / 10.0, 1));
      v_width := greatest(0.5, round(v_place.width - (v_h % 6) / 10.0, 1));
      v_guest := v_h % 400;
      v_country := case when v_guest % 20 < 12 then 'Deutschland' when v_guest % 20 < 16 then 'Nederland'
                        when v_guest % 20 < 18 then 'Belgique' when v_guest % 20 = 18 then 'Schweiz' else 'United Kingdom' end;
      v_first_name := (array['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Finn', 'Greta', 'Hannes', 'Ida', 'Jonas'])[1 + v_guest % 10];
      if v_kind = 'day' then
        v_start := private.berlin_at(v_day, time '10:00' + (v_h % 5) * interval '1 hour');
        v_end := v_start + interval '1 hour' * (2 + v_h % 4);
      else
        v_start := private.berlin_at(v_day, time '14:00');
        v_end := private.berlin_at(v_day + v_nights, time '12:00');
      end if;
      v_quote := private.price_breakdown(v_kind, v_nights, v_length, v_code, v_code_value);
      insert into public.orders (place_id, kind, starts_at, ends_at, status, payment_status, payment_id, price_cents, price_breakdown,
                                 email, sale_code, place_snapshot, boat, person, checked_in, checked_in_at, cancelled_at, created_at)
      values (v_place.id, v_kind, v_start, v_end, v_status,
              case when v_status = 'completed' then 'paid' else 'pending' end::public.payment_status,
              case when v_status = 'completed' then 'bar' end,
              (v_quote ->> 'gross_cents')::int, v_quote,
              'gast' || v_guest || '@example.org', v_code,
              jsonb_build_object('id', v_place.id, 'name', v_place.name, 'pier', v_place.pier,
                                 'width', v_place.width, 'length', v_place.length, 'one_day', v_place.one_day),
              jsonb_build_object('name', 'Boot ' || v_guest, 'length', v_length, 'width', v_width),
              jsonb_build_object('first_name', v_first_name, 'last_name', 'Gast ' || v_guest,
                                 'email', 'gast' || v_guest || '@example.org', 'country', v_country),
              v_status = 'completed',
              case when v_status = 'completed' then v_start + interval '40 minutes' end,
              case when v_status = 'cancelled' then v_start - interval '5 days' end,
              v_start - interval '1 day' * (3 + v_h % 40))
      returning id into v_order;
      insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, cancelled, created_by)
      values (v_place.id, v_order,
              case when v_status = 'completed' then 'rent' else 'reservation' end::public.place_status_type,
              v_start, v_end, v_status = 'cancelled', null);
      v_day := v_day + v_nights + 1 + (v_h / 7) % 3;
    end loop;
  end loop;
end
$$;

-- The completed stays were paid in cash at the desk: their payments in the ledger.
insert into public.payments (order_id, kind, method, amount_cents, currency, recorded_at, note)
select o.id, 'payment', 'cash', o.price_cents, 'eur', coalesce(o.checked_in_at, o.created_at), o.payment_id
from public.orders o
where o.payment_status = 'paid' and not exists (select 1 from public.payments p where p.order_id = o.id);
