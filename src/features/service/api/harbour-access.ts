import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';

export type HarbourAccess = Database['public']['Functions']['harbour_access']['Returns'][number];

/**
 * The door code and wifi, through harbour_access(), for a user harbour_access_allowed() lets
 * see them; null for anyone else (asked first, so nobody's page makes a refused request).
 */
async function fetchHarbourAccess(): Promise<HarbourAccess | null> {
  const supabase = await getSupabase();
  const allowed = await supabase.rpc('harbour_access_allowed');
  if (allowed.error) throw allowed.error;
  if (!allowed.data) return null;
  const { data, error } = await supabase.rpc('harbour_access');
  if (error) {
    if (error.code === '42501' || error.code === 'PGRST202') return null;
    throw error;
  }
  return data[0] ?? null;
}

export const harbourAccessQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['service', 'harbour-access', userId], queryFn: fetchHarbourAccess, staleTime: 5 * 60_000, retry: false });
