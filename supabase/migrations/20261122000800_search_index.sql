-- Search at scale: with years of history per berth, the overlap test probes the berths'
-- statuses that end after the arrival (an ordinary btree range scan per berth) instead of
-- the gist index of the exclusion constraint, which stays the guard against double booking.
-- Measured with supabase/local/bench/booking.bench.ts (1,000 berths, 10 years of stays).

create index place_statuses_place_end_idx on public.place_statuses (place_id, ends_at) where not cancelled;

create or replace function public.search_available_places(
  p_kind public.order_kind,
  p_arrival date,
  p_boat_length numeric,
  p_boat_width numeric,
  p_departure date default null,
  p_day_start time default null,
  p_day_end time default null,
  p_sale_code text default null
)
returns table (
  place_id uuid,
  name text,
  pier text,
  description text,
  description_en text,
  image_path text,
  width numeric,
  length numeric,
  one_day boolean,
  features text[],
  "position" double precision[],
  area numeric,
  price_cents integer,
  quote jsonb
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_quote jsonb;
  v_period record;
  v_now timestamptz := private.now();
  v_first date;
  v_last date;
begin
  perform private.check_boat(p_boat_length, p_boat_width);
  v_quote := public.quote_booking(p_kind, p_arrival, p_boat_length, p_departure, p_day_start, p_day_end, p_sale_code);
  select * into v_period from private.stay_period(p_kind, p_arrival, p_departure, p_day_start, p_day_end);
  v_first := p_arrival;
  v_last := case when p_kind = 'day' then p_arrival else p_departure - 1 end;
  return query
    select p.id, p.name, p.pier, p.description, p.description_en, p.image_path, p.width, p.length,
           p.one_day, p.features, p.position, p.width * p.length, (v_quote ->> 'gross_cents')::integer, v_quote
    from public.places p
    where not p.archived
      and p.length >= p_boat_length
      and p.width >= p_boat_width
      and (p_kind <> 'day' or p.one_day)
      and not exists (
        select 1 from public.long_term_holders h
        where h.place_id = p.id and h.starts_on <= v_last and (h.ends_on is null or h.ends_on >= v_first)
      )
      and not exists (
        select 1
        from public.place_statuses s
        left join public.orders o on o.id = s.order_id
        where s.place_id = p.id
          and not s.cancelled
          and s.ends_at > v_period.starts_at
          and s.starts_at < v_period.ends_at
          and not (o.status is not distinct from 'unverified' and o.expires_at <= v_now)
      )
    order by p.width * p.length, p.length, p.name;
end
$$;
