/**
 * Whether a failed query is worth one more try (issue 40 item 4). A refusal is the answer and a
 * retry only repeats it: a Postgres or PostgREST error code (22023 "period_in_past", 42501, P0001,
 * PGRST…) or an HTTP 4xx. A network failure (no code), a server error (5xx) or a connection
 * class code (08, 53, 57, 58, XX) may pass on a second try: one retry, as before.
 */
export function isRefusal(error: unknown): boolean {
  const e = error as { code?: unknown; status?: unknown } | null;
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return true;
  const code = typeof e?.code === 'string' ? e.code : '';
  return code !== '' && !/^(08|53|57|58|XX)/.test(code);
}

/** react-query's `retry` for the app: refusals are final, anything else is tried once more. */
export const retryUnlessRefused = (failureCount: number, error: unknown) => failureCount < 1 && !isRefusal(error);
