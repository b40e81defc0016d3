-- The history of an order (public.order_events, supabase/schemas/36_order_desk.sql) is never
-- rewritten, like the ledger, the invoices, the cash book and the audit trail: no role updates,
-- deletes or truncates a row, the service role, the owner and security definer functions
-- included. An account's deletion keeps the events it acted in (the actor's id then names
-- nobody), and an order with a history is kept.
begin;
select plan(12);
select private.freeze_clock('2027-06-01 10:00+02');

insert into public.places (name, width, length, one_day, archived) values ('H1', 4, 13, false, false);
select tests.create_user('customer');

select tests.authenticate_as('customer');
select set_config('tests.order', (select id::text from public.create_booking(tests.place_id('H1'), 'overnight', '2027-06-10',
  '{"name": "Historia", "length": 9, "width": 3}', '{"first_name": "Hanne", "last_name": "Historia", "locale": "de"}', '2027-06-12')), true);
select tests.clear_authentication();
select isnt_empty($$ select 1 from public.order_events where order_id = current_setting('tests.order')::uuid and event = 'created' $$,
  'the booking wrote its first event');
select set_config('tests.events', (select count(*)::text from public.order_events where order_id = current_setting('tests.order')::uuid), true);

-- The service role (edge functions, the dashboard's key) has no right to change it ...
set local role service_role;
select throws_ok($$ update public.order_events set to_value = 'x' $$, '42501', null, 'the service role cannot update the history');
select throws_ok($$ delete from public.order_events $$, '42501', null, 'nor delete it');
select throws_ok($$ truncate public.order_events $$, '42501', null, 'nor truncate it');
select throws_ok($$ insert into public.order_events (order_id, event) values (current_setting('tests.order')::uuid, 'status') $$, '42501', null,
  'nor write an event of its own (the triggers and the webhook''s functions do)');
reset role;

-- ... and the trigger refuses whoever owns the table or runs as it.
select throws_ok($$ update public.order_events set to_value = 'x' $$, '42501', 'order_events_immutable', 'even the owner is refused by the trigger');
select throws_ok($$ delete from public.order_events $$, '42501', 'order_events_immutable', 'delete too');
select throws_ok($$ truncate public.order_events $$, '42501', 'order_events_immutable', 'and truncate');

-- An order with a history is not deleted (no cascade through the history).
select throws_ok($$ delete from public.orders where id = current_setting('tests.order')::uuid $$, '23503', null,
  'an order with a history cannot be deleted');

-- A change to the order is a new event; then the account that acted is deleted: the events stay.
update public.orders set status = 'cancelled' where id = current_setting('tests.order')::uuid;
select ok((select count(*) from public.order_events where order_id = current_setting('tests.order')::uuid) > current_setting('tests.events')::bigint,
  'a change is a new event');
select set_config('tests.actor_rows', (select count(*)::text from public.order_events where actor = tests.get_user_id('customer')), true);
select ok(current_setting('tests.actor_rows')::int > 0, 'the customer is the actor of the booking''s first event');
select tests.authenticate_as('customer');
select public.delete_my_account();
select tests.clear_authentication();
select is((select count(*) from public.order_events where order_id = current_setting('tests.order')::uuid and actor is not null)::int >= current_setting('tests.actor_rows')::int,
  true, 'deleting the account that acted keeps its events as they were');

select * from finish();
rollback;
