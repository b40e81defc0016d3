import { getSupabase } from '@/lib/auth';
import type { AppSupabaseClient } from '@/lib/supabase';

/** The app's one Supabase client (loaded lazily), typed by the generated schema (as getSupabase() is now). */
export async function getDb(): Promise<AppSupabaseClient> {
  return getSupabase();
}
