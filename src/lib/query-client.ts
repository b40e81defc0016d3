import { QueryClient } from '@tanstack/react-query';

/** One query client for the app: data stays fresh for a minute, failed loads retry once. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}
