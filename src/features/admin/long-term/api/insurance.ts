import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';
import { checkList } from '@/lib/supabase-errors';

/** A current or coming holding without a valid insurance certificate or registration mark (ADR 0050). */
export type MissingInsurance = Database['public']['Functions']['holders_missing_insurance']['Returns'][number];

export const missingInsuranceKeys = { all: ['admin', 'long-term', 'insurance-missing'] as const };

/** Every holding missing a certificate valid today or a registration mark (staff only, a short list). */
export const missingInsuranceQueryOptions = () =>
  queryOptions({
    queryKey: missingInsuranceKeys.all,
    queryFn: async (): Promise<MissingInsurance[]> => {
      const supabase = await getSupabase();
      return checkList(await supabase.rpc('holders_missing_insurance'));
    },
  });
