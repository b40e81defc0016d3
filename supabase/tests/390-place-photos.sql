-- Berth photos (issue 24): everyone reads the photos of active berths in their order, only
-- admins add, reorder and remove them, the first photo is the berth's cover (image_path), and
-- the photos go with a deleted berth.
begin;
select plan(16);

insert into public.places (name, width, length) values ('F1', 4, 12), ('F2', 4, 12);
update public.places set archived = true where name = 'F2';
insert into public.place_photos (place_id, path, position) values
  (tests.place_id('F1'), 'places/f1/a.jpg', 0), (tests.place_id('F1'), 'places/f1/b.jpg', 1),
  (tests.place_id('F2'), 'places/f2/a.jpg', 0);
select tests.create_user('customer');
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);

select results_eq($$ select image_path from public.places where name = 'F1' $$, $$ values ('places/f1/a.jpg') $$,
  'the first photo is the berth''s cover');

-- ---------------------------------------------------------------- guests read
select tests.authenticate_as_anon();
select results_eq($$ select path from public.place_photos order by position $$,
  $$ values ('places/f1/a.jpg'), ('places/f1/b.jpg') $$, 'anon reads the photos of active berths in their order, not of archived ones');
select throws_ok($$ insert into public.place_photos (place_id, path) values (tests.place_id('F1'), 'x.jpg') $$,
  '42501', null, 'anon cannot add a photo');
select tests.authenticate_as('customer');
select is((select count(*) from public.place_photos), 2::bigint, 'a customer reads them too');
select throws_ok($$ insert into public.place_photos (place_id, path) values (tests.place_id('F1'), 'x.jpg') $$,
  '42501', null, 'a customer cannot add a photo');
select is_empty($$ update public.place_photos set position = 5 returning 1 $$, 'nor reorder them');
select is_empty($$ delete from public.place_photos returning 1 $$, 'nor delete them');
select lives_ok($$ select public.reorder_place_photos(tests.place_id('F1'), array(select id from public.place_photos order by position desc)) $$,
  'reorder_place_photos runs as the caller');

-- ---------------------------------------------------------------- staff
select tests.authenticate_as('harbour');
select is((select count(*) from public.place_photos), 3::bigint, 'staff read the photos of archived berths too');
select throws_ok($$ insert into public.place_photos (place_id, path) values (tests.place_id('F1'), 'x.jpg') $$,
  '42501', null, 'harbour staff cannot add a photo');
select is_empty($$ delete from public.place_photos returning 1 $$, 'nor delete one');

-- ---------------------------------------------------------------- admin
select tests.authenticate_as('admin');
select results_eq($$ select path from public.place_photos where place_id = tests.place_id('F1') order by position $$,
  $$ values ('places/f1/a.jpg'), ('places/f1/b.jpg') $$, 'the customer''s reorder changed nothing');
select lives_ok($$ select public.reorder_place_photos(tests.place_id('F1'), array(select id from public.place_photos where place_id = tests.place_id('F1') order by position desc)) $$,
  'an admin reorders the photos');
select results_eq($$ select path, image_path from public.place_photos f join public.places p on p.id = f.place_id where p.name = 'F1' order by f.position $$,
  $$ values ('places/f1/b.jpg', 'places/f1/b.jpg'), ('places/f1/a.jpg', 'places/f1/b.jpg') $$,
  'in the new order, and the new first photo is the cover');
delete from public.place_photos where place_id = tests.place_id('F1');
select results_eq($$ select image_path from public.places where name = 'F1' $$, $$ values (null::text) $$,
  'without photos the berth has no cover');
select lives_ok($$ delete from public.places where name = 'F2' $$, 'a berth with photos is deleted, its photos with it');

select * from finish();
rollback;
