import { createFileRoute } from '@tanstack/react-router';
import { OverviewPage } from '@/features/harbour/overview/components/overview-page';

/** Today's harbour at a glance (staff; the admin layout route answers everyone else with 404). */
export const Route = createFileRoute('/{-$locale}/account/admin/overview')({
  loader: async ({ context }) => {
    const { overviewQueryOptions } = await import('@/features/harbour/overview/api/overview');
    await context.queryClient.prefetchQuery(overviewQueryOptions());
  },
  component: OverviewPage,
});
