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

/** A row id as the database writes it; anything else in a URL is simply not found. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** check() for list answers: an absent list is an empty one. */
export function checkList<T>(result: { data: T[] | null; error: ApiError | null }): T[] {
  return check(result) ?? [];
}
