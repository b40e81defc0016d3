import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { bookingKeys } from './keys';

export interface ProfileRow {
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  phone: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  boat_name: string | null;
  boat_tag: string | null;
  boat_length: number | string | null;
  boat_width: number | string | null;
}

/** The logged-in customer's profile, to prefill the boat and the person form. */
export const profileQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: bookingKeys.profile(userId),
    queryFn: async (): Promise<ProfileRow | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('profiles')
        .select('email, first_name, last_name, company, phone, street, postal_code, city, country, boat_name, boat_tag, boat_length, boat_width')
        .eq('id', userId)
        .maybeSingle();
      if (error) throw error;
      return data as ProfileRow | null;
    },
  });
