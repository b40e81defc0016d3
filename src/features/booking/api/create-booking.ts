import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Order, OrderJson } from '@/features/orders';
import { draughtOf, parseDecimal, stayParams, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import type { PersonValues } from '@/features/booking/schemas/person';
import { bookingKeys } from '@/features/booking/api/keys';

export interface CreateBookingInput {
  placeId: string;
  berth: BerthDataValues;
  person: PersonValues;
  saveProfile: boolean;
  /** The page language: stored on the order, so its e-mails are in the language booked in. */
  locale: string;
}

/** Books the berth (create_booking). A lost race is SQLSTATE 23P01 'berth_no_longer_available'. */
export async function createBooking({ placeId, berth, person, saveProfile, locale }: CreateBookingInput): Promise<Order> {
  const supabase = await getSupabase();
  const { data, error } = await supabase
    .rpc('create_booking', {
      p_place_id: placeId,
      ...stayParams(berth),
      p_boat: {
        name: berth.boatName,
        tag: berth.boatTag || null,
        length: parseDecimal(berth.boatLength),
        width: parseDecimal(berth.boatWidth),
        draught: draughtOf(berth),
      },
      p_person: {
        first_name: person.firstName,
        last_name: person.lastName,
        email: person.email,
        phone: person.phone,
        company: person.company,
        street: person.street,
        postal_code: person.postalCode,
        city: person.city,
        country: person.country,
        locale,
      },
      p_sale_code: person.saleCode || undefined,
      p_save_profile: saveProfile,
    })
    // create_booking returns the orders row; its jsonb columns are Json in the generated type.
    .overrideTypes<OrderJson>();
  if (error) throw error;
  return data;
}

export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  });
}

/** A lost booking race (docs/architecture.md "Order and berth states"). */
export function isBerthTaken(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23P01' || e?.message === 'berth_no_longer_available';
}
