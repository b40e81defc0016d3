import { env } from '@/lib/env';
import { createAppClient, type AppSupabaseClient } from '@/lib/supabase-client';

export type { AppSupabaseClient };

/**
 * The one Supabase client of the app (src/lib/supabase-client.ts), typed by the generated schema
 * (src/lib/database.types.ts, `npm run db:types`): a renamed column or function argument fails
 * `npm run typecheck`. App code gets it through `getSupabase()` from '@/lib/auth' (a lazy import:
 * the client stays out of the initial bundle, and auth events reach the query cache); only
 * auth.ts imports this module.
 */
export const supabase: AppSupabaseClient = createAppClient(env.supabaseUrl, env.supabaseKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});
