/**
 * react-query's runtime, loaded on demand by src/lib/query.tsx: the app's one QueryClient and
 * the observer class its shell and start page subscribe with once it is here.
 */
import { notifyManager, QueryObserver } from '@tanstack/react-query';
import { createQueryClient } from '@/lib/query-client';

export { notifyManager, QueryObserver };

export const queryClient = createQueryClient();
// What QueryClientProvider does on mount (focus and online events); the client lives as long as the app.
queryClient.mount();
