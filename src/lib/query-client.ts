import { QueryClient } from '@tanstack/react-query';
import { retryUnlessRefused } from '@/lib/retry';

/**
 * One query client for the app: data stays fresh for a minute, failed loads retry once unless
 * the server refused them (a 4xx or a database error code is the answer, src/lib/retry.ts).
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, retry: retryUnlessRefused, refetchOnWindowFocus: false },
    },
  });
}
