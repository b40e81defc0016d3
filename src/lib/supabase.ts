import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { env } from '@/lib/env';
import type { Database } from '@/lib/database.types';
import { followSessionInRealtime } from '@/lib/realtime-auth';

/** The app's client type: every `.from()` / `.rpc()` is checked against the generated schema. */
export type AppSupabaseClient = SupabaseClient<Database>;

/**
 * The one Supabase client of the app, typed by the generated schema (src/lib/database.types.ts,
 * `npm run db:types`): a renamed column or function argument fails `npm run typecheck`. App code
 * gets it through `getSupabase()` from '@/lib/auth' (a lazy import: supabase-js stays out of the
 * initial bundle, and auth events reach the query cache); only auth.ts imports this module.
 */
export const supabase: AppSupabaseClient = createClient<Database>(env.supabaseUrl, env.supabaseKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});

// Realtime follows every token of the session (the second factor's aal2 token too).
followSessionInRealtime(supabase);
