import { createFileRoute } from '@tanstack/react-router';
import { InboxPage } from '@/features/harbour/inbox/components/inbox-page';

/** Contact messages and service requests (staff; the admin layout route answers everyone else with 404). */
export const Route = createFileRoute('/{-$locale}/account/admin/inbox')({
  loader: async ({ context }) => {
    const { inboxQueryOptions } = await import('@/features/harbour/inbox/api/inbox');
    await context.queryClient.prefetchQuery(inboxQueryOptions());
  },
  component: InboxPage,
});
