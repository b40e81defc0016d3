/**
 * Generated harbour data for the issue 25 equivalence test (tests/db/perf-equivalence.test.ts)
 * and the before/after benchmark (bench/perf.bench.ts): berths of every size class (a tenth of
 * them day-guest berths), long-term holders, stays over several years in every order state
 * (completed, checked in, confirmed, unverified with a lapsed or a live hold, cancelled,
 * expired), sale codes in any case, guests by e-mail in any case, service blocks; then, through
 * the ordinary triggers, what changes bookings afterwards: cancellations, moves to other
 * berths, payments and partial refunds, extras (removed ones and returned deposits), late
 * check-ins and boat changes. Everything goes through the tables' triggers (no replica mode),
 * so the report facts are kept by the same transactions as in production.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Queryable } from '../../supabase/local/src/db/types.ts';

const KUNDE = 'a0000000-0000-4000-8000-000000000003';

/** The functions as they were before issue 25, in schema perf_before. */
export const beforeSql = readFileSync(resolve(import.meta.dirname, 'fixtures/perf-before.sql'), 'utf8');

export interface HarbourShape {
  /** Berths added (prefix Q); 20 empty berths (prefix M) take moved stays. */
  berths: number;
  /** Days of stays before today, and after. */
  pastDays: number;
  futureDays: number;
  /** A stay per berth every `slot` days (at least 12). */
  slot: number;
}

export function harbourSql({ berths, pastDays, futureDays, slot }: HarbourShape): string {
  const slots = Math.floor((pastDays + futureDays) / slot);
  return `
    insert into public.places (name, pier, width, length, one_day)
    select 'Q' || lpad(n::text, 4, '0'), 'Q', 2.5 + (n % 14) * 0.25, 6 + (n % 20) + (n % 3) * 0.5, n % 10 = 0
    from generate_series(1, ${berths}) n;
    insert into public.places (name, pier, width, length, one_day)
    select 'M' || lpad(n::text, 4, '0'), 'M', 4.5, 25, false from generate_series(1, 20) n;

    insert into public.long_term_holders (place_id, starts_on, ends_on, boat_name, first_name, last_name)
    select id, current_date - 400 + substring(name, 2)::int % 300,
           case when substring(name, 2)::int % 2 = 0 then current_date + 100 + substring(name, 2)::int % 50 end,
           'Dauer ' || name, 'Lang', 'Lieger'
    from public.places where name like 'Q%' and substring(name, 2)::int % 25 = 7;

    create temp table gen_stays on commit drop as
    select p.id as place_id, p.name, p.length, p.one_day, k,
           (current_date - ${pastDays}) + k * ${slot} + (x.h % 4) as arrival,
           case when p.one_day then 0 else 1 + x.h % 5 end as nights,
           x.h
    from public.places p
    cross join generate_series(0, ${slots - 1}) k
    cross join lateral (select abs(hashtext(p.name || ':' || k)) as h) x
    where p.name like 'Q%';
    -- No guest stay on a held berth while it is held (the database refuses one unless an absence
    -- of the holder covers it: ADR 0054).
    delete from gen_stays s using public.long_term_holders h
    where h.place_id = s.place_id and daterange(h.starts_on, h.ends_on) && daterange(s.arrival, s.arrival + greatest(s.nights, 1));

    create temp table gen_orders on commit drop as
    select s.*,
           case when s.one_day then private.berlin_at(s.arrival, time '09:00') else private.berlin_at(s.arrival, time '14:00') end as starts_at,
           case when s.one_day then private.berlin_at(s.arrival, time '09:00') + make_interval(hours => 3 + s.h % 8)
                else private.berlin_at(s.arrival + s.nights, time '12:00') end as ends_at,
           case
             when s.arrival + s.nights < current_date then
               case when s.h % 17 = 0 then 'cancelled' when s.h % 19 = 1 then 'expired' else 'completed' end
             when s.arrival <= current_date then 'checked_in'
             else case when s.h % 11 = 0 then 'unverified' when s.h % 13 = 0 then 'cancelled' else 'confirmed' end
           end::public.order_status as status,
           case when s.h % 10 = 1 then (array['RHEIN5', 'rhein5', 'Freunde'])[1 + s.h % 3] end as sale_code
    from gen_stays s;

    insert into public.orders (user_id, place_id, kind, starts_at, ends_at, status, payment_status, price_cents, price_breakdown,
                               email, sale_code, place_snapshot, boat, person, checked_in, checked_in_at, expires_at, created_at)
    select case when g.h % 5 = 0 then '${KUNDE}'::uuid end, g.place_id,
           case when g.one_day then 'day' else 'overnight' end::public.order_kind, g.starts_at, g.ends_at, g.status, 'pending',
           (private.price_breakdown(case when g.one_day then 'day' else 'overnight' end::public.order_kind, g.nights, g.length - 0.5,
              upper(g.sale_code), case when g.sale_code is not null then (case when upper(g.sale_code) = 'RHEIN5' then 500 else 0 end) end) ->> 'gross_cents')::int,
           private.price_breakdown(case when g.one_day then 'day' else 'overnight' end::public.order_kind, g.nights, g.length - 0.5,
              upper(g.sale_code), case when g.sale_code is not null then (case when upper(g.sale_code) = 'RHEIN5' then 500 else 0 end) end),
           case when g.h % 50 = 0 then 'Gast' || (g.h % 3000) || '@Example.org' else 'gast' || (g.h % 3000) || '@example.org' end,
           g.sale_code, jsonb_build_object('id', g.place_id, 'name', g.name),
           case when g.h % 7 = 0 then jsonb_build_object('name', 'Boot ' || g.k, 'length', (g.length - 0.5)::text, 'width', 2.5)
                else jsonb_build_object('name', 'Boot ' || g.k, 'length', g.length - 0.5 - (g.h % 3) * 0.25, 'width', 2.5) end,
           jsonb_build_object('first_name', 'Gast', 'last_name', 'Nr' || (g.h % 3000))
             || case when g.h % 9 = 4 then '{}'::jsonb
                     else jsonb_build_object('country', (array['Deutschland', 'Nederland', 'Belgique', ' ', '', 'Schweiz', ' Danmark '])[1 + g.h % 7]) end,
           g.status in ('checked_in', 'completed') and g.h % 9 <> 0,
           case when g.status in ('checked_in', 'completed') and g.h % 9 <> 0 then g.starts_at + interval '1 hour' end,
           case when g.status = 'unverified' then now() + case when g.h % 2 = 0 then interval '-1 hour' else interval '2 hours' end end,
           g.starts_at - interval '20 days'
    from gen_orders g;

    insert into public.place_statuses (place_id, order_id, type, starts_at, ends_at, cancelled)
    select o.place_id, o.id, case when o.status in ('checked_in', 'completed') then 'rent' else 'reservation' end::public.place_status_type,
           o.starts_at, o.ends_at, o.status in ('cancelled', 'expired')
    from public.orders o join public.places p on p.id = o.place_id
    where p.name like 'Q%';

    -- Service blocks in the gaps (a slot's stay ends by its 9th day).
    insert into public.place_statuses (place_id, type, starts_at, ends_at, note)
    select s.place_id, 'service', private.berlin_at(s.arrival - s.h % 4 + 9, time '08:00'), private.berlin_at(s.arrival - s.h % 4 + 10, time '18:00'), 'Wartung'
    from gen_stays s where s.h % 6 = 0;

    -- Afterwards, through the triggers: cancellations of confirmed stays.
    create temp table gen_cancel on commit drop as
    select o.id from public.orders o join public.places p on p.id = o.place_id
    where p.name like 'Q%' and o.status = 'confirmed' and abs(hashtext(o.id::text)) % 25 = 0;
    update public.orders set status = 'cancelled', cancelled_at = now() where id in (select id from gen_cancel);
    update public.place_statuses set cancelled = true where order_id in (select id from gen_cancel);

    -- Moves: stays of Q0001..Q0020 to the empty M berth of the same number.
    create temp table gen_move on commit drop as
    select o.id, m.id as target from public.orders o
    join public.places p on p.id = o.place_id
    join public.places m on m.name = 'M' || substring(p.name, 2)
    where p.name like 'Q%' and substring(p.name, 2)::int <= 20 and abs(hashtext(o.id::text || 'm')) % 3 = 0;
    update public.place_statuses s set place_id = g.target from gen_move g where s.order_id = g.id;
    update public.orders o set place_id = g.target from gen_move g where o.id = g.id;

    -- Payments of half the sales, partial refunds of a fifth of those.
    insert into public.payments (order_id, kind, method, amount_cents, note)
    select o.id, 'payment', (array['cash', 'card_terminal', 'bank_transfer'])[1 + abs(hashtext(o.id::text)) % 3]::public.payment_method, o.price_cents, 'gen'
    from public.orders o
    where o.status in ('confirmed', 'checked_in', 'completed') and o.price_cents > 0 and abs(hashtext(o.id::text || 'p')) % 2 = 0;
    insert into public.payments (order_id, kind, method, amount_cents, refund_of, note)
    select p.order_id, 'refund', 'cash', greatest(p.amount_cents / 3, 1), p.id, 'gen refund'
    from public.payments p
    where p.note = 'gen' and p.method = 'cash' and abs(hashtext(p.id::text)) % 5 = 0;

    -- Extras on a sixth of the sales; some removed again, some deposits returned.
    insert into public.order_extras (order_id, extra_id, code, name, name_en, unit, unit_price_cents, vat_rate, deposit, quantity)
    select o.id, e.id, e.code, e.name, e.name_en, e.unit, e.price_cents + abs(hashtext(o.id::text)) % 300, e.vat_rate, e.deposit,
           1 + abs(hashtext(o.id::text || e.code)) % 3
    from public.orders o
    join (select x.*, row_number() over (order by x.code) - 1 as rn, count(*) over () as cnt from public.extras x) e
      on e.rn = abs(hashtext(o.id::text || 'e')) % e.cnt
    where o.status in ('confirmed', 'checked_in', 'completed') and abs(hashtext(o.id::text || 'x')) % 6 = 0;
    insert into public.order_extras (order_id, extra_id, code, name, name_en, unit, unit_price_cents, vat_rate, deposit, quantity)
    select o.id, e.id, e.code, e.name, e.name_en, e.unit, e.price_cents, e.vat_rate, e.deposit, 2
    from public.orders o cross join lateral (select * from public.extras x where x.deposit order by x.code limit 1) e
    where o.status in ('confirmed', 'checked_in', 'completed') and abs(hashtext(o.id::text || 'd')) % 9 = 0;
    update public.order_extras set removed_at = now() where not deposit and abs(hashtext(id::text)) % 5 = 0;
    update public.order_extras set returned_at = now() where deposit and abs(hashtext(id::text)) % 2 = 0;

    -- Late check-ins and a changed boat.
    update public.orders set checked_in = true, checked_in_at = starts_at + interval '3 hours'
    where status = 'completed' and not checked_in and abs(hashtext(id::text || 'c')) % 2 = 0;
    update public.orders set boat = boat || jsonb_build_object('length', 7.75)
    where status in ('confirmed', 'completed') and abs(hashtext(id::text || 'b')) % 40 = 0;
  `;
}

/** Runs a statement as the seeded admin (role + claims as PostgREST sets them). */
export async function asAdmin<T>(
  db: { transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R> },
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: 'a0000000-0000-4000-8000-000000000001', role: 'authenticated', aal: 'aal2' }),
    ]);
    return fn(tx);
  });
}
