-- Storage refuses a DELETE on storage.objects or storage.buckets that does not come through its
-- API (supabase/storage migration 0055-prevent-direct-deletes, on hosted Supabase since 2025):
-- a statement trigger raises 42501 unless the transaction set storage.allow_delete_query to
-- 'true', which Storage's API (and the local storage service, storage/core.ts) does. Found by
-- the platform-shaped test database (supabase/tests/platform-db.test.ts). Idempotent: run on a
-- new database and on one bootstrapped by an older stack version.
create or replace function storage.protect_delete() returns trigger
language plpgsql as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.', errcode = '42501';
  end if;
  return null;
end
$$;
alter function storage.protect_delete() owner to supabase_storage_admin;

drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();
