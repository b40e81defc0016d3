import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Tables } from '@/lib/database.types';
import { bookingKeys } from '@/features/booking/api/keys';

/** The profile columns that prefill the booking (numeric boat sizes arrive as JSON numbers). */
export type ProfileRow = Pick<
  Tables<'profiles'>,
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'company'
  | 'phone'
  | 'street'
  | 'postal_code'
  | 'city'
  | 'country'
  | 'boat_name'
  | 'boat_tag'
  | 'boat_length'
  | 'boat_width'
  | 'boat_draught'
>;

/** The logged-in customer's profile, to prefill the boat and the person form. */
export const profileQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: bookingKeys.profile(userId),
    queryFn: async (): Promise<ProfileRow | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('profiles')
        .select(
          'email, first_name, last_name, company, phone, street, postal_code, city, country, boat_name, boat_tag, boat_length, boat_width, boat_draught',
        )
        .eq('id', userId)
        .maybeSingle();
      if (error) throw error;
      return data;
    },
  });
