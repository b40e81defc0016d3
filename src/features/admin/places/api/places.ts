import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { fetchAll } from '@/lib/fetch-all';
import { Refused } from '@/lib/refused';
import { removeImageQuietly, uploadImage } from '@/features/admin/shared/upsert-image';
import { adminPlaceKeys } from '@/features/admin/shared/place-keys';

export const PLACE_BUCKET = 'place-images';
/** The berth's title image (spec: places/{id}/title.jpg), whatever the uploaded type. */
export const placeImagePath = (id: string) => `places/${id}/title.jpg`;

export type AdminPlaceRow = Pick<
  Tables<'places'>,
  'id' | 'name' | 'pier' | 'length' | 'width' | 'one_day' | 'archived' | 'image_path' | 'updated_at'
>;

export type AdminPlace = AdminPlaceRow &
  Pick<Tables<'places'>, 'description' | 'description_en' | 'video_url' | 'features' | 'position' | 'depth_cm' | 'depth_reference_cm'> & {
    additional_place_ids: string[];
  };

/** Every berth, archived ones too (admins read them through RLS). */
export const adminPlacesQueryOptions = () =>
  queryOptions({
    queryKey: adminPlaceKeys.list(),
    queryFn: async (): Promise<AdminPlaceRow[]> => {
      const supabase = await getSupabase();
      // Paged past max_rows (1,000 rows per answer): the list is shown whole.
      return fetchAll((lo, hi) =>
        supabase
          .from('places')
          .select('id, name, pier, length, width, one_day, archived, image_path, updated_at')
          .order('name')
          .order('id')
          .range(lo, hi),
      );
    },
  });

export const adminPlaceQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminPlaceKeys.place(id),
    queryFn: async (): Promise<AdminPlace | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('places')
        .select(
          'id, name, pier, length, width, one_day, archived, image_path, updated_at, description, description_en, video_url, features, position, depth_cm, depth_reference_cm, place_additional_places(additional_place_id)',
        )
        .eq('id', id)
        .maybeSingle();
      if (error) {
        if (error.code === '22P02') return null;
        throw error;
      }
      if (!data) return null;
      const { place_additional_places: links, ...rest } = data;
      return { ...rest, additional_place_ids: links.map((l) => l.additional_place_id) };
    },
  });

export interface PlaceInput {
  name: string;
  pier: string | null;
  description: string;
  description_en: string;
  video_url: string | null;
  width: number;
  length: number;
  one_day: boolean;
  features: string[];
  position: [number, number] | null;
  depth_cm: number | null;
  depth_reference_cm: number | null;
}

export type PlaceSaveError = 'duplicate_name' | 'invalid' | 'forbidden' | 'unknown';

function saveError(error: { code?: string }): PlaceSaveError {
  if (error.code === '23505') return 'duplicate_name';
  if (error.code === '23514' || error.code === '22P02' || error.code === '22003') return 'invalid';
  if (error.code === '42501') return 'forbidden';
  return 'unknown';
}

/** Creates or updates a berth, then its columns (one call); returns the berth's id. */
export async function savePlace(
  input: PlaceInput,
  additionalPlaceIds: string[],
  id?: string,
): Promise<{ id: string } | { error: PlaceSaveError }> {
  const supabase = await getSupabase();
  const res = id
    ? await supabase.from('places').update(input).eq('id', id).select('id').single()
    : await supabase.from('places').insert(input).select('id').single();
  if (res.error) return { error: saveError(res.error) };
  const placeId = res.data.id;
  const links = await supabase.rpc('set_place_additional_places', { p_place_id: placeId, p_additional_place_ids: additionalPlaceIds });
  if (links.error) return { error: saveError(links.error) };
  return { id: placeId };
}

/** A berth's photo (place_photos): its object in the place-images bucket and its place in the order. */
export type AdminPlacePhoto = Pick<Tables<'place_photos'>, 'id' | 'path' | 'position'>;

/** A new photo's object: its own name per upload (places/<id>/photo-<time>.<ext>), so a browser never shows a cached other one. */
export const placePhotoPath = (id: string, file: File) =>
  `places/${id}/photo-${Date.now()}.${file.type === 'image/png' ? 'png' : file.type === 'image/webp' ? 'webp' : 'jpg'}`;

export const adminPlacePhotosQueryOptions = (placeId: string) =>
  queryOptions({
    queryKey: adminPlaceKeys.photos(placeId),
    queryFn: async (): Promise<AdminPlacePhoto[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('place_photos')
        .select('id, path, position')
        .eq('place_id', placeId)
        .order('position')
        .order('created_at')
        .order('id');
      if (error) throw error;
      return data;
    },
  });

/** Adds an uploaded object as the berth's last photo (the first one becomes its cover, places.image_path, by trigger). */
export async function addPlacePhoto(placeId: string, path: string): Promise<boolean> {
  const supabase = await getSupabase();
  const last = await supabase
    .from('place_photos')
    .select('position')
    .eq('place_id', placeId)
    .order('position', { ascending: false })
    .limit(1);
  if (last.error) return false;
  const { error } = await supabase.from('place_photos').insert({ place_id: placeId, path, position: (last.data[0]?.position ?? -1) + 1 });
  return !error;
}

/** Removes a photo: the row first (guests stop seeing it), then its object (a failure there is ignored). */
export async function removePlacePhoto(photo: AdminPlacePhoto): Promise<boolean> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.from('place_photos').delete().eq('id', photo.id).select('id');
  if (error || data.length !== 1) return false;
  await removeImageQuietly(PLACE_BUCKET, photo.path);
  return true;
}

/** The photos' new order, first to last, in one call (reorder_place_photos; only admins change rows). */
export async function reorderPlacePhotos(placeId: string, ids: string[]): Promise<boolean> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('reorder_place_photos', { p_place_id: placeId, p_photo_ids: ids });
  return !error;
}

export async function setPlaceArchived(id: string, archived: boolean): Promise<boolean> {
  const supabase = await getSupabase();
  const { error } = await supabase.from('places').update({ archived }).eq('id', id);
  return !error;
}

/** How many orders a berth has (a berth with orders can only be archived). */
export async function countPlaceOrders(id: string): Promise<number> {
  const supabase = await getSupabase();
  const { count, error } = await supabase.from('orders').select('id', { count: 'exact', head: true }).eq('place_id', id);
  if (error) throw error;
  return count ?? 0;
}

export type PlaceDeleteError = 'has_orders' | 'unknown';

/** Deletes the photos' objects first (a failure there is ignored), then the berth (its photo rows with it); the database refuses a berth with orders. */
export async function deletePlace(id: string): Promise<PlaceDeleteError | null> {
  // Asked first so a berth that will be refused keeps its images; the trigger still decides.
  if ((await countPlaceOrders(id).catch(() => 0)) > 0) return 'has_orders';
  const supabase = await getSupabase();
  const photos = await supabase.from('place_photos').select('path').eq('place_id', id);
  for (const path of new Set([placeImagePath(id), ...(photos.data ?? []).map((p) => p.path)])) await removeImageQuietly(PLACE_BUCKET, path);
  const { data, error } = await supabase.from('places').delete().eq('id', id).select('id');
  if (error) return error.message === 'place_has_orders' || error.code === '23503' ? 'has_orders' : 'unknown';
  return data.length === 1 ? null : 'unknown';
}

/** Create or update a berth and its columns (savePlace); throws Refused<PlaceSaveError>; refreshes the admin's berth queries either way. */
export function useSavePlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, additionalPlaceIds, id }: { input: PlaceInput; additionalPlaceIds: string[]; id?: string }) => {
      const result = await savePlace(input, additionalPlaceIds, id);
      if ('error' in result) throw new Refused(result.error);
      return result.id;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
  });
}

/** Archive or restore a berth; refreshes the admin's berth queries. */
export function useSetPlaceArchived() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, archived }: { id: string; archived: boolean }) => {
      if (!(await setPlaceArchived(id, archived))) throw new Refused('unknown');
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
  });
}

/** Delete a berth (deletePlace); throws Refused<PlaceDeleteError>; refreshes the admin's berth queries. */
export function useDeletePlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const failed = await deletePlace(id);
      if (failed) throw new Refused(failed);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
  });
}

export { adminPlaceKeys };

/** The queries a photo change touches: the berth's photos, the list (its cover) and the berth. */
function refreshPhotos(queryClient: QueryClient, placeId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminPlaceKeys.photos(placeId) }),
    queryClient.invalidateQueries({ queryKey: adminPlaceKeys.list() }),
    queryClient.invalidateQueries({ queryKey: adminPlaceKeys.place(placeId) }),
  ]);
}

/** Add a photo: upload it (with progress), then its row (addPlacePhoto); throws Refused<UploadError>; refreshes the photo queries. */
export function useAddPlacePhoto(placeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, onProgress }: { file: File; onProgress: (share: number) => void }) => {
      const path = placePhotoPath(placeId, file);
      const failed = await uploadImage(PLACE_BUCKET, path, file, onProgress);
      if (failed) throw new Refused(failed);
      if (!(await addPlacePhoto(placeId, path))) throw new Refused('failed');
    },
    onSuccess: () => refreshPhotos(queryClient, placeId),
  });
}

/** Put the photos in a new order (reorderPlacePhotos); refreshes the photo queries either way. */
export function useReorderPlacePhotos(placeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      if (!(await reorderPlacePhotos(placeId, ids))) throw new Refused('unknown');
    },
    onSettled: () => refreshPhotos(queryClient, placeId),
  });
}

/** Remove a photo with its object (removePlacePhoto); refreshes the photo queries either way. */
export function useRemovePlacePhoto(placeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (photo: AdminPlacePhoto) => {
      if (!(await removePlacePhoto(photo))) throw new Refused('unknown');
    },
    onSettled: () => refreshPhotos(queryClient, placeId),
  });
}
