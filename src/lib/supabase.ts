import { createClient } from '@supabase/supabase-js';
import { env } from './env';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from './database.types';

/**
 * The one Supabase client of the app. Import it lazily (`await import('@/lib/supabase')`)
 * from code that public pages run, so supabase-js stays out of the initial bundle.
 */
export const supabase = createClient(env.supabaseUrl, env.supabaseKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});

/**
 * The same client, typed by the generated schema (src/lib/database.types.ts). New code uses
 * this view; `supabase` stays untyped until the older call sites are migrated.
 */
export const db = supabase as unknown as SupabaseClient<Database>;

/** Throws a Supabase error so that queries fail and error boundaries or forms show it. */
export function unwrap<T>(result: { data: T; error: { message: string; code?: string } | null }): T {
  if (result.error) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.data;
}
