import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { fetchAll } from '@/lib/fetch-all';
import { Refused } from '@/lib/refused';
import { adminPlaceKeys } from '@/features/admin/shared/place-keys';

export type Holder = Pick<
  Tables<'long_term_holders'>,
  | 'id'
  | 'place_id'
  | 'user_id'
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'starts_on'
  | 'ends_on'
  | 'boat_name'
  | 'boat_tag'
  | 'boat_length'
  | 'boat_width'
>;

/** The berth's current or coming holders (not yet ended), first first. */
export const holdersQueryOptions = (placeId: string, today: string) =>
  queryOptions({
    queryKey: adminPlaceKeys.holders(placeId),
    queryFn: async (): Promise<Holder[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('long_term_holders')
        .select('id, place_id, user_id, email, first_name, last_name, starts_on, ends_on, boat_name, boat_tag, boat_length, boat_width')
        .eq('place_id', placeId)
        .or(`ends_on.is.null,ends_on.gte.${today}`)
        .order('starts_on');
      if (error) throw error;
      return data;
    },
  });

export interface Application {
  id: string;
  place_id: string | null;
  place_name: string | null;
  email: string;
  first_name: string;
  last_name: string;
  boat: { name?: string; tag?: string; length?: number; width?: number };
  desired_start: string | null;
  status: string;
  created_at: string;
  waiting_position: number | null;
}

/** All applications in waiting-list order (open ones first, by position); admins only. */
export const applicationsQueryOptions = () =>
  queryOptions({
    queryKey: adminPlaceKeys.applications(),
    queryFn: async (): Promise<Application[]> => {
      const supabase = await getSupabase();
      // Paged past max_rows (1,000 rows per answer): the list is shown whole. The queue's own
      // order, made total for paging: open ones by waiting position (the others have none), then
      // the answered ones by arrival.
      const rows = await fetchAll((lo, hi) =>
        supabase
          .rpc('long_term_applications_queue')
          .order('waiting_position', { nullsFirst: false })
          .order('created_at')
          .order('id')
          .range(lo, hi),
      );
      return rows as unknown as Application[];
    },
  });

/** A customer to pick as holder (profiles.email is nullable in the schema, though auth users have one). */
export type UserOption = Pick<
  Tables<'profiles'>,
  'id' | 'email' | 'first_name' | 'last_name' | 'boat_name' | 'boat_tag' | 'boat_length' | 'boat_width' | 'boat_draught'
>;

/** Customers by e-mail or name, for the holder dialog (staff read all profiles). */
export const userSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: adminPlaceKeys.users(q),
    queryFn: async (): Promise<UserOption[]> => {
      const supabase = await getSupabase();
      const term = q.replace(/[%,()*]/g, ' ').trim();
      let query = supabase
        .from('profiles')
        .select('id, email, first_name, last_name, boat_name, boat_tag, boat_length, boat_width, boat_draught')
        .order('email')
        .limit(20);
      if (term) query = query.or(`email.ilike.*${term}*,last_name.ilike.*${term}*,first_name.ilike.*${term}*`);
      const { data, error } = await query;
      if (error) throw error;
      return data;
    },
    staleTime: 30_000,
  });

export interface HolderInput {
  user_id?: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  boat_name?: string;
  boat_tag?: string;
  boat_length?: number;
  boat_width?: number;
  boat_draught?: number;
}

export type HolderError = 'already_held' | 'has_bookings' | 'invalid' | 'user_not_found' | 'application_not_open' | 'unknown';

function holderError(error: { code?: string; message?: string }): HolderError {
  if (error.message === 'berth_already_held') return 'already_held';
  if (error.message === 'berth_has_bookings') return 'has_bookings';
  if (error.message === 'user_not_found') return 'user_not_found';
  if (error.message === 'application_not_open') return 'application_not_open';
  if (error.code === '22023' || error.code === '23514' || error.code === '22P02' || error.code === '22003') return 'invalid';
  return 'unknown';
}

export async function assignHolder(
  placeId: string,
  startsOn: string,
  holder: HolderInput,
  applicationId?: string,
): Promise<HolderError | null> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('assign_long_term_holder', {
    p_place_id: placeId,
    p_starts_on: startsOn,
    p_holder: holder as never,
    p_application_id: applicationId,
  });
  return error ? holderError(error) : null;
}

export async function removeHolder(holderId: string, lastDay?: string): Promise<HolderError | null> {
  const supabase = await getSupabase();
  const { error } = await supabase.rpc('remove_long_term_holder', { p_holder_id: holderId, p_last_day: lastDay });
  return error ? holderError(error) : null;
}

/** Assign a berth's long-term holder (assignHolder); throws Refused<HolderError>; refreshes the admin's berth queries. */
export function useAssignHolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      placeId,
      startsOn,
      holder,
      applicationId,
    }: {
      placeId: string;
      startsOn: string;
      holder: HolderInput;
      applicationId?: string;
    }) => {
      const failed = await assignHolder(placeId, startsOn, holder, applicationId);
      if (failed) throw new Refused(failed);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
  });
}

/** End or cancel a holder (removeHolder); throws Refused<HolderError>; refreshes the berth's holders either way. */
export function useRemoveHolder(placeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ holderId, lastDay }: { holderId: string; lastDay?: string }) => {
      const failed = await removeHolder(holderId, lastDay);
      if (failed) throw new Refused(failed);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminPlaceKeys.holders(placeId) }),
  });
}
