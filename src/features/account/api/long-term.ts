import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';

/**
 * A long-term holding with its berth. `place` may be null although holders.place_id is not null:
 * RLS hides archived berths from customers, and PostgREST then embeds null.
 */
export type Holding = Pick<
  Tables<'long_term_holders'>,
  | 'id'
  | 'place_id'
  | 'starts_on'
  | 'ends_on'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'boat_name'
  | 'boat_tag'
  | 'boat_length'
  | 'boat_width'
> & { place: Pick<Tables<'places'>, 'id' | 'name' | 'pier' | 'length' | 'width'> | null };

/** The check constraint of long_term_applications.status (text in the generated row). */
export type ApplicationStatus = 'open' | 'accepted' | 'declined' | 'withdrawn';

/** The jsonb boat of an application as apply_for_long_term_berth stores it. */
export interface ApplicationBoat {
  name?: string;
  length?: number;
  width?: number;
  tag?: string;
}

/** An application as its applicant reads it: a narrower view (status, boat) of the row, with the berth name and position. */
export type Application = Pick<Tables<'long_term_applications'>, 'id' | 'place_id' | 'created_at' | 'answered_at' | 'answer'> & {
  status: ApplicationStatus;
  boat: ApplicationBoat;
  place_name: string | null;
  waiting_position: number | null;
};

async function myId(): Promise<string | undefined> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.user.id;
}

/** The caller's long-term holdings (RLS: own rows), current and future first, with the berth. */
export const myHoldingsQueryOptions = () =>
  queryOptions({
    queryKey: ['long-term', 'holdings'] as const,
    queryFn: async (): Promise<Holding[]> => {
      const id = await myId();
      if (!id) return [];
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('long_term_holders')
        .select(
          'id, place_id, starts_on, ends_on, first_name, last_name, email, boat_name, boat_tag, boat_length, boat_width, place:places(id, name, pier, length, width)',
        )
        .eq('user_id', id)
        .order('starts_on', { ascending: false })
        // The embedded berth is null when RLS hides it (archived), which the relationship cannot know.
        .overrideTypes<{ place: Holding['place'] }[]>();
      if (error) throw error;
      return data;
    },
  });

/** The caller's applications (RLS: own rows) with the waiting-list position of the open ones. */
export const myApplicationsQueryOptions = () =>
  queryOptions({
    queryKey: ['long-term', 'applications'] as const,
    queryFn: async (): Promise<Application[]> => {
      const id = await myId();
      if (!id) return [];
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('long_term_applications')
        .select('id, place_id, status, created_at, answered_at, answer, boat, place:places(name)')
        .eq('user_id', id)
        .order('created_at', { ascending: false })
        // status is text with a check constraint, boat jsonb; the berth is null when RLS hides it.
        .overrideTypes<{ status: ApplicationStatus; boat: ApplicationBoat; place: { name: string } | null }[]>();
      if (error) throw error;
      return Promise.all(
        data.map(async ({ place, ...r }): Promise<Application> => {
          let position: number | null = null;
          if (r.status === 'open') {
            const status = await supabase.rpc('long_term_application_status', { p_id: r.id });
            if (status.error) throw status.error;
            position = status.data[0]?.waiting_position ?? null;
          }
          return { ...r, place_name: place?.name ?? null, waiting_position: position };
        }),
      );
    },
  });

export type BerthOption = Pick<Tables<'places'>, 'id' | 'name' | 'length' | 'width'>;

/** Berths one may name in an application (active ones; RLS hides archived berths from customers). */
export const berthOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['long-term', 'berths'] as const,
    queryFn: async (): Promise<BerthOption[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.from('places').select('id, name, length, width').eq('archived', false).order('name');
      if (error) throw error;
      return data;
    },
    staleTime: 5 * 60_000,
  });

/** Prefill of the application: the profile's person and boat data. */
export const applicantQueryOptions = () =>
  queryOptions({
    queryKey: ['long-term', 'applicant'] as const,
    queryFn: async () => {
      const id = await myId();
      if (!id) return null;
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('profiles')
        .select('email, first_name, last_name, phone, boat_name, boat_tag, boat_length, boat_width, locale')
        .eq('id', id)
        .maybeSingle();
      if (error) throw error;
      return data;
    },
  });

export interface ApplyInput {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  placeId: string;
  boat: { name: string; tag: string; length: number; width: number };
  desiredStart: string;
  message: string;
  locale: string;
}

/** public.apply_for_long_term_berth: stores the application, queues the receipt e-mail, returns the position. */
export async function applyForLongTermBerth(v: ApplyInput): Promise<{ id: string; waiting_position: number }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('apply_for_long_term_berth', {
    p_email: v.email,
    p_first_name: v.firstName,
    p_last_name: v.lastName,
    p_boat: { name: v.boat.name, tag: v.boat.tag || null, length: v.boat.length, width: v.boat.width },
    p_place_id: v.placeId || undefined,
    p_phone: v.phone || undefined,
    p_desired_start: v.desiredStart || undefined,
    p_message: v.message || undefined,
    p_locale: v.locale,
  });
  if (error) throw error;
  const row = data[0];
  if (!row) throw new Error('no application');
  return row;
}
