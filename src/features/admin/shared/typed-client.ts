import type { SupabaseClient } from '@supabase/supabase-js';
import { getSupabase } from '@/lib/auth';
import type { Database } from '@/lib/database.types';

/** The app's one Supabase client (loaded lazily), typed by the generated schema. */
export async function getDb(): Promise<SupabaseClient<Database>> {
  return (await getSupabase()) as unknown as SupabaseClient<Database>;
}
