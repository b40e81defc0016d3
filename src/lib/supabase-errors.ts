/** True when the error says a table or function does not exist (yet): PostgREST PGRST205/PGRST202, Postgres 42P01/42883. */
export function isMissingRelation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'PGRST205' || code === 'PGRST202' || code === '42P01' || code === '42883';
}

/** A Supabase (PostgREST or Storage) error as the API returns it. */
export interface ApiError {
  code?: string;
  message?: string;
}

/** Throws the error of a Supabase result (keeping code and message), else returns its data. */
export function check<T>(result: { data: T; error: ApiError | null }): T {
  if (result.error) throw Object.assign(new Error(result.error.message ?? 'error'), { code: result.error.code });
  return result.data;
}

/** check() for list answers: an absent list is an empty one. */
export function checkList<T>(result: { data: T[] | null; error: ApiError | null }): T[] {
  return check(result) ?? [];
}
