import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';

export type HarbourAccess = Database['public']['Functions']['harbour_access']['Returns'][number];

/** The door code and wifi, through harbour_access(): null when the database refuses (42501) this user. */
async function fetchHarbourAccess(): Promise<HarbourAccess | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('harbour_access');
  if (error) {
    if (error.code === '42501' || error.code === 'PGRST202') return null;
    throw error;
  }
  return data[0] ?? null;
}

export const harbourAccessQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['service', 'harbour-access', userId], queryFn: fetchHarbourAccess, staleTime: 5 * 60_000, retry: false });
