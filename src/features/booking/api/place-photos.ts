import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { bookingKeys } from '@/features/booking/api/keys';

/** A berth's photos (paths in the place-images bucket), in the order the harbour gave them. */
export type PlacePhotos = Record<string, string[]>;

/** The photos of the berths shown (place_photos, readable for everyone for active berths). */
export const placePhotosQueryOptions = (placeIds: readonly string[]) =>
  queryOptions({
    queryKey: bookingKeys.photos(placeIds),
    queryFn: async (): Promise<PlacePhotos> => {
      if (placeIds.length === 0) return {};
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('place_photos')
        .select('place_id, path')
        .in('place_id', [...placeIds])
        .order('position')
        .order('created_at')
        .order('id');
      if (error) throw error;
      const byPlace: PlacePhotos = {};
      for (const row of data) (byPlace[row.place_id] ??= []).push(row.path);
      return byPlace;
    },
    staleTime: 60_000,
  });
