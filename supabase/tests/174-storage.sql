-- Storage: buckets with limits, public images that only admins change, avatars that only the
-- owner writes (folder = user id) and staff read.
begin;
select plan(13);

select tests.create_user('customer');
select tests.create_user('other');
select tests.create_user('inactive', p_active => false);
select tests.create_user('harbour', array['harbor']);
select tests.create_user('admin', array['admin']);
insert into storage.objects (bucket_id, name) values
  ('place-images', 'A01/title.jpg'),
  ('avatars', tests.get_user_id('customer') || '/me.jpg');

select results_eq(
  $$ select id, public, file_size_limit, allowed_mime_types from storage.buckets
     where id in ('place-images', 'news-images', 'additional-place-images', 'avatars') order by id $$,
  $$ values ('additional-place-images', true, 5242880::bigint, array['image/jpeg', 'image/png', 'image/webp']),
            ('avatars', false, 5242880::bigint, array['image/jpeg', 'image/png', 'image/webp']),
            ('news-images', true, 5242880::bigint, array['image/jpeg', 'image/png', 'image/webp']),
            ('place-images', true, 5242880::bigint, array['image/jpeg', 'image/png', 'image/webp']) $$,
  'four buckets, 5 MB, JPEG/PNG/WebP; avatars are private');

select tests.authenticate_as_anon();
select results_eq($$ select name from storage.objects $$, $$ values ('A01/title.jpg') $$, 'anon lists berth images, not avatars');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('place-images', 'x.jpg') $$, '42501', null, 'anon cannot upload');

select tests.authenticate_as('customer');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('news-images', 'x.jpg') $$, '42501', null,
  'a customer cannot upload news images');
select throws_ok($$ delete from storage.objects where bucket_id = 'place-images' $$, '42501', null,
  'nor delete berth images (Storage refuses a delete that does not come through its API)');
select set_config('storage.allow_delete_query', 'true', true);
select is_empty($$ delete from storage.objects where bucket_id = 'place-images' returning 1 $$, 'nor through the Storage API: the policies refuse the customer');
select set_config('storage.allow_delete_query', 'false', true);
select lives_ok($$ insert into storage.objects (bucket_id, name, owner) values ('avatars', auth.uid() || '/new.png', auth.uid()) $$,
  'a customer uploads an avatar into the own folder');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', tests.get_user_id('other') || '/x.png') $$, '42501', null,
  'but not into another''s folder');

select tests.authenticate_as('other');
select is_empty($$ select * from storage.objects where bucket_id = 'avatars' $$, 'another customer does not see the avatar');

select tests.authenticate_as('inactive');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('avatars', auth.uid() || '/x.png') $$, '42501', null,
  'an inactive customer cannot upload');

select tests.authenticate_as('harbour');
select is((select count(*) from storage.objects where bucket_id = 'avatars'), 2::bigint, 'harbour staff see avatars');
select throws_ok($$ insert into storage.objects (bucket_id, name) values ('place-images', 'x.jpg') $$, '42501', null,
  'harbour staff do not upload berth images');

select tests.authenticate_as('admin');
select lives_ok($$ insert into storage.objects (bucket_id, name) values ('additional-place-images', 'strom-a1.webp') $$,
  'an admin uploads column images');

select tests.clear_authentication();
select * from finish();
rollback;
