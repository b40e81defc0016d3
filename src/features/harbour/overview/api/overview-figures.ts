import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';
import { harbourKeys } from '@/features/harbour/shared/keys';

/** One row of overview_figures (bigint cents as JSON numbers, made sure of in the query). */
export type OverviewFigures = Database['public']['Functions']['overview_figures']['Returns'][number];

/**
 * The overview's figures at a glance, counted in the database (staff only; ADR 0013). Under the
 * overview's key, so the live refreshes of the overview (orders, berths, messages) renew them.
 */
export const overviewFiguresQueryOptions = () =>
  queryOptions({
    queryKey: [...harbourKeys.overview(), 'figures'] as const,
    queryFn: async (): Promise<OverviewFigures> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('overview_figures').single();
      if (error) throw error;
      return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Number(v)])) as OverviewFigures;
    },
    staleTime: 15_000,
  });
