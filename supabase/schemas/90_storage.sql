-- Storage buckets for images and avatars, and their policies on storage.objects.

insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('place-images', 'place-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('news-images', 'news-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('additional-place-images', 'additional-place-images', true, 5242880, array['image/jpeg', 'image/png', 'image/webp']),
  ('avatars', 'avatars', false, 5242880, array['image/jpeg', 'image/png', 'image/webp'])
on conflict (id) do update set
  public = excluded.public,
  file_size_limit = excluded.file_size_limit,
  allowed_mime_types = excluded.allowed_mime_types;

-- One policy per operation: public images (place, news, column) that only admins change,
-- avatars in a folder named by the owner's id, and long-term holders' insurance certificates in
-- a folder per holding (64_holder_insurance.sql: the holder reads and uploads the own, staff read
-- all; nobody changes or deletes one).
create policy "objects: public images, own avatars and certificates, staff all" on storage.objects
  for select to anon, authenticated
  using (
    bucket_id in ('place-images', 'news-images', 'additional-place-images')
    or (bucket_id = 'avatars' and (
      (storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_staff())))
    or (bucket_id = 'insurance-certificates' and (
      (select private.is_staff())
      or exists (select 1 from public.long_term_holders h
                  where h.id::text = (storage.foldername(name))[1] and h.user_id = (select auth.uid())))));

create policy "objects: admins upload images, owners their avatar and certificates" on storage.objects
  for insert to authenticated
  with check (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
        and (select private.is_active_user()))
    or (bucket_id = 'insurance-certificates' and (select private.is_active_user())
        and private.is_own_holding_folder((storage.foldername(name))[1])));

create policy "objects: admins update images, owners their avatar" on storage.objects
  for update to authenticated
  using (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text))
  with check (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text
        and (select private.is_active_user())));

create policy "objects: admins delete images, owners their avatar" on storage.objects
  for delete to authenticated
  using (
    (bucket_id in ('place-images', 'news-images', 'additional-place-images') and (select private.has_role('admin')))
    or (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text));
