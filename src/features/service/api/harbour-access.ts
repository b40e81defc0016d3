import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';

export interface HarbourAccess {
  door_code: string;
  wifi_ssid: string;
  wifi_password: string;
}

/** The door code and wifi, through harbour_access(): null when the database refuses (42501) this user. */
async function fetchHarbourAccess(): Promise<HarbourAccess | null> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.rpc('harbour_access');
  if (error) {
    if (error.code === '42501' || error.code === 'PGRST202') return null;
    throw error;
  }
  const row = (Array.isArray(data) ? data[0] : data) as HarbourAccess | undefined;
  return row ?? null;
}

export const harbourAccessQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['service', 'harbour-access', userId], queryFn: fetchHarbourAccess, staleTime: 5 * 60_000, retry: false });
