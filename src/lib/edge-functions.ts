import { getSupabase } from '@/lib/auth';

/**
 * A refused or failed edge function call. `code` is the function's `{error: code}` (4xx for bad
 * input and refused rules), `unauthorized` for the gateway's 401 (no or expired session),
 * `network` when the function could not be reached, `unknown` for anything else.
 */
export class FunctionCallError extends Error {
  constructor(
    readonly code: string,
    readonly status?: number,
  ) {
    super(code);
    this.name = 'FunctionCallError';
  }
}

/** Calls an edge function with the user's session (supabase.functions.invoke) and returns its JSON. */
export async function invokeFunction<T>(name: string, body: Record<string, unknown>): Promise<T> {
  const supabase = await getSupabase();
  const { data, error } = await (await supabase.functions()).invoke<T>(name, { body });
  if (!error) return data as T;
  // FunctionsHttpError carries the Response (its body unread); fetch and relay errors do not.
  const response = (error as { context?: unknown }).context;
  if (!(response instanceof Response)) throw new FunctionCallError('network');
  if (response.status === 401) throw new FunctionCallError('unauthorized', 401);
  let code = 'unknown';
  try {
    const json = (await response.json()) as { error?: unknown; code?: unknown };
    if (typeof json.error === 'string') code = json.error;
    else if (typeof json.code === 'string') code = json.code;
  } catch {
    // not JSON: keep 'unknown'
  }
  throw new FunctionCallError(code, response.status);
}
