import { createFileRoute } from '@tanstack/react-router';
import { HarbourMapPage } from '@/features/admin/map/components/harbour-map-page';

/** The harbour plan with today's berth states and the columns: staff and admins (the admin layout answers everyone else with 404). */
export const Route = createFileRoute('/{-$locale}/account/admin/map/')({
  component: HarbourMapPage,
});
