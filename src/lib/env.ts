/** Build-time configuration: the Supabase URL and publishable (anon) key. */
export const env = {
  supabaseUrl: import.meta.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321',
  supabaseKey: import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY ?? '',
};

/** The local-storage key supabase-js keeps the session under: sb-<first label of the host>-auth-token. */
export const authStorageKey = `sb-${new URL(env.supabaseUrl).hostname.split('.')[0]}-auth-token`;
