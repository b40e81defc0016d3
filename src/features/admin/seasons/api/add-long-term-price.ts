import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { seasonKeys } from '@/features/admin/seasons/api/keys';
import type { LongTermPriceValues } from '@/features/admin/seasons/schemas/long-term-price';

/** Adds a price change valid from a later day (add_long_term_price: admins; the list is append-only). */
export function useAddLongTermPrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: LongTermPriceValues) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('add_long_term_price', {
        p_season_kind: v.kind,
        p_basis: v.basis,
        p_gross_cents: v.price,
        p_vat_rate: Number(v.vatRate),
        p_electricity_gross_cents: v.electricity,
        p_electricity_vat_rate: Number(v.electricityVatRate),
        p_valid_from: v.validFrom,
      });
      if (error) throw error;
      return data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: seasonKeys.all }),
  });
}
