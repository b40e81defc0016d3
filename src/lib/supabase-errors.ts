/** True when the error says a table or function does not exist (yet): PostgREST PGRST205/PGRST202, Postgres 42P01/42883. */
export function isMissingRelation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'PGRST205' || code === 'PGRST202' || code === '42P01' || code === '42883';
}
