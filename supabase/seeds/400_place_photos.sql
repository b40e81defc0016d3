-- The demo harbour's berth photos (issue 40, item 15): one per berth for a few berths on every
-- pier, so the booking flow shows them. The images are generated (scripts/generate-berth-photos.mjs),
-- committed under seeds/place-images/demo/ and uploaded into the place-images bucket at start
-- (config.toml [storage.buckets.place-images] objects_path). The cover trigger sets places.image_path.
insert into public.place_photos (place_id, path, position)
select p.id, 'demo/' || p.name || '.png', 0
from public.places p
where p.name in ('A04', 'A08', 'B04', 'C06', 'D03', 'E02')
  and not exists (select 1 from public.place_photos f where f.place_id = p.id);
