-- The staff overview's figures at a glance (issue 40, items 14 and 15; ADR 0013): today's
-- arrivals (still expected and already arrived), departures, berth occupancy, money to pay back
-- and the bookings of the last seven days against the seven before. Counted here, in one query
-- per figure, so the tiles say what the database says (the lists below them on the page are
-- capped; these numbers are not). Staff only.
create function private.overview_figures()
returns table (
  arrivals_expected integer, arrivals_arrived integer, departures integer,
  berths_occupied integer, berths_bookable integer,
  refund_orders integer, refund_cents bigint,
  bookings_week integer, bookings_prior_week integer, revenue_week_cents bigint, revenue_prior_week_cents bigint
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := private.now();
  v_today date := private.berlin_date(private.now());
  v_from timestamptz := private.berlin_at(private.berlin_date(private.now()), time '00:00');
  v_to timestamptz := private.berlin_at(private.berlin_date(private.now()) + 1, time '00:00');
begin
  if not private.is_staff() then
    raise exception 'staff_only' using errcode = '42501';
  end if;
  return query
    with arrivals as (
      -- The overview's "Anreisen heute": stays starting today; checked in (or already gone again)
      -- counts as arrived, the others are still expected.
      select count(*) filter (where o.status in ('unverified', 'confirmed'))::integer as expected,
             count(*) filter (where o.status in ('checked_in', 'completed'))::integer as arrived
        from public.orders o
       where o.starts_at >= v_from and o.starts_at < v_to
         and o.status in ('unverified', 'confirmed', 'checked_in', 'completed')
    ), leaving as (
      select count(*)::integer as n
        from public.orders o
       where o.ends_at > v_from and o.ends_at <= v_to
         and o.status in ('confirmed', 'checked_in', 'completed')
    ), occupancy as (
      -- Berths with any live occupation today (a booking, a block, a long-term holder; lapsed
      -- holds are not), among the berths not archived.
      select (select count(distinct e.place_id)
                from private.calendar_entries(v_today, v_today, null) e
                join public.places p on p.id = e.place_id and not p.archived)::integer as occupied,
             (select count(*) from public.places p where not p.archived)::integer as bookable
    ), owed as (
      -- The rule of the overview's "Geld zurückzuzahlen" list (private.money_to_return): how many
      -- orders in all, and the sum of what it lists (its first 100, oldest first).
      select coalesce(max(m.open_total), 0)::integer as n,
             coalesce(sum(m.to_refund_cents + m.failed_refund_cents), 0)::bigint as cents
        from private.money_to_return(100) m
    ), trend as (
      -- Bookings made (still standing: confirmed, checked in or completed) in the last seven
      -- days, and in the seven days before, with their prices.
      select count(*) filter (where o.created_at >= v_now - interval '7 days')::integer as week,
             count(*) filter (where o.created_at < v_now - interval '7 days')::integer as prior_week,
             coalesce(sum(o.price_cents) filter (where o.created_at >= v_now - interval '7 days'), 0)::bigint as revenue_week,
             coalesce(sum(o.price_cents) filter (where o.created_at < v_now - interval '7 days'), 0)::bigint as revenue_prior_week
        from public.orders o
       where o.created_at >= v_now - interval '14 days' and o.created_at < v_now
         and o.status in ('confirmed', 'checked_in', 'completed')
    )
    select a.expected, a.arrived, l.n, c.occupied, c.bookable, w.n, w.cents,
           t.week, t.prior_week, t.revenue_week, t.revenue_prior_week
      from arrivals a, leaving l, occupancy c, owed w, trend t;
end
$$;
comment on function private.overview_figures() is 'The rule behind public.overview_figures (security definer, not exposed by the API).';
revoke execute on function private.overview_figures() from public;
grant execute on function private.overview_figures() to authenticated, service_role;

-- The API endpoint (/rest/v1/rpc/overview_figures): runs as the caller, the rule above decides.
create function public.overview_figures()
returns table (
  arrivals_expected integer, arrivals_arrived integer, departures integer,
  berths_occupied integer, berths_bookable integer,
  refund_orders integer, refund_cents bigint,
  bookings_week integer, bookings_prior_week integer, revenue_week_cents bigint, revenue_prior_week_cents bigint
)
language sql
stable
security invoker
set search_path = ''
as $$
  select * from private.overview_figures()
$$;
comment on function public.overview_figures() is 'Staff: the overview''s figures at a glance: today''s arrivals (expected, arrived), departures, berths occupied today of those bookable, money to pay back (orders, cents), and standing bookings and their prices in the last seven days against the seven before.';
revoke execute on function public.overview_figures() from anon, public;
