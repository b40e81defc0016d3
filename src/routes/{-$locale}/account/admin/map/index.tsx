import { createFileRoute } from '@tanstack/react-router';
import { HarbourMapPage } from '@/features/admin/map/components/harbour-map-page';

/** The harbour plan with today's berth states and the columns: staff and admins (the admin layout answers everyone else with 404). */
export const Route = createFileRoute('/{-$locale}/account/admin/map/')({
  loader: async ({ context }) => {
    const [{ mapQueryOptions }, { berlinToday }] = await Promise.all([import('@/features/admin/map/api/map'), import('@/lib/dates')]);
    await context.queryClient.prefetchQuery(mapQueryOptions(berlinToday()));
  },
  component: HarbourMapPage,
});
