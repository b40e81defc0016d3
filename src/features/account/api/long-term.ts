import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

export interface Holding {
  id: string;
  place_id: string;
  starts_on: string;
  ends_on: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  boat_name: string | null;
  boat_tag: string | null;
  boat_length: number | null;
  boat_width: number | null;
  place: { id: string; name: string; pier: string | null; length: number; width: number } | null;
}

export interface Application {
  id: string;
  place_id: string | null;
  place_name: string | null;
  status: 'open' | 'accepted' | 'declined' | 'withdrawn';
  waiting_position: number | null;
  created_at: string;
  answered_at: string | null;
  answer: string | null;
  boat: { name?: string; length?: number; width?: number; tag?: string };
}

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
        .select('id, place_id, starts_on, ends_on, first_name, last_name, email, boat_name, boat_tag, boat_length, boat_width, place:places(id, name, pier, length, width)')
        .eq('user_id', id)
        .order('starts_on', { ascending: false });
      if (error) throw error;
      return (data ?? []) as unknown as Holding[];
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
        .order('created_at', { ascending: false });
      if (error) throw error;
      const rows = (data ?? []) as unknown as (Omit<Application, 'place_name' | 'waiting_position'> & { place: { name: string } | null })[];
      return Promise.all(
        rows.map(async (r) => {
          let position: number | null = null;
          if (r.status === 'open') {
            const status = await supabase.rpc('long_term_application_status', { p_id: r.id });
            if (status.error) throw status.error;
            position = (status.data as { waiting_position: number | null }[])[0]?.waiting_position ?? null;
          }
          return { ...r, place_name: r.place?.name ?? null, waiting_position: position };
        }),
      );
    },
  });

export interface BerthOption { id: string; name: string; length: number; width: number }

/** Berths one may name in an application (active ones; RLS hides archived berths from customers). */
export const berthOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['long-term', 'berths'] as const,
    queryFn: async (): Promise<BerthOption[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.from('places').select('id, name, length, width').eq('archived', false).order('name');
      if (error) throw error;
      return (data ?? []) as BerthOption[];
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
  email: string; firstName: string; lastName: string; phone: string; placeId: string;
  boat: { name: string; tag: string; length: number; width: number }; desiredStart: string; message: string; locale: string;
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
  const row = (data as { id: string; waiting_position: number }[])[0];
  if (!row) throw new Error('no application');
  return row;
}
