-- news: everyone reads active items (start before now, end after now); admins all.
begin;
select plan(8);

insert into public.news (title, starts_at, ends_at) values
  ('aktiv', now() - interval '1 day', now() + interval '1 day'),
  ('vorbei', now() - interval '10 days', now() - interval '1 day'),
  ('geplant', now() + interval '1 day', now() + interval '10 days');
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

select tests.authenticate_as_anon();
select results_eq($$ select title from public.news $$, $$ values ('aktiv') $$, 'anon reads only active news');
select throws_ok($$ insert into public.news (title, starts_at, ends_at) values ('x', now(), now() + interval '1 day') $$,
  '42501', null, 'anon cannot write news');

select tests.authenticate_as('customer');
select results_eq($$ select title from public.news $$, $$ values ('aktiv') $$, 'a customer reads only active news');
select is_empty($$ delete from public.news returning 1 $$, 'a customer cannot delete news (filtered)');

select tests.authenticate_as('harbour');
select results_eq($$ select title from public.news $$, $$ values ('aktiv') $$, 'harbour staff read only active news');

select tests.authenticate_as('admin');
select results_eq($$ select title from public.news order by starts_at $$, $$ values ('vorbei'), ('aktiv'), ('geplant') $$,
  'an admin reads all news');
select results_eq($$ insert into public.news (title, title_en, starts_at, ends_at, dates) values ('Neu', 'New', now(), now() + interval '1 day', array['2027-01-17'::date]) returning title_en $$,
  $$ values ('New') $$, 'an admin creates news');
select results_eq($$ delete from public.news where title = 'vorbei' returning title $$, $$ values ('vorbei') $$, 'an admin deletes news');

select tests.clear_authentication();
select * from finish();
rollback;
