import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { PlacesListPage } from '@/features/admin/places/components/places-list-page';

/** Berths (admins only; staff get the 404 page, RLS refuses their writes anyway). */
export const Route = createFileRoute('/{-$locale}/account/admin/places/')({
  beforeLoad: requireAdmin,
  loader: async ({ context }) => {
    const { adminPlacesQueryOptions } = await import('@/features/admin/places/api/places');
    await context.queryClient.prefetchQuery(adminPlacesQueryOptions());
  },
  component: PlacesListPage,
});
