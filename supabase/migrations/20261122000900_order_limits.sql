-- Bounds on what a booking stores: create_booking keeps only known person and boat fields,
-- but their values come from the caller. Oversized snapshots are refused (23514, HTTP 400).
alter table public.orders
  add constraint orders_person_size check (octet_length(person::text) <= 4000),
  add constraint orders_boat_size check (octet_length(boat::text) <= 1000);
