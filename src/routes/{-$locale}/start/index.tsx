import { createFileRoute } from '@tanstack/react-router';
import { StartPage } from '@/features/start/components/start-page';

export const Route = createFileRoute('/{-$locale}/start/')({
  // The start page and the shell of a visitor without a session need no QueryClient (src/lib/query.tsx).
  staticData: { withoutQueryClient: true },
  component: StartPage,
});
