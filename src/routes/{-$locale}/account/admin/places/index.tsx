import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { PlacesListPage } from '@/features/admin/places/components/places-list-page';

/**
 * Berths (admins only; staff get the 404 page, RLS refuses their writes anyway). No loader: the
 * page queries itself, which keeps these route files tiny in the first download.
 */
export const Route = createFileRoute('/{-$locale}/account/admin/places/')({
  beforeLoad: requireAdmin,
  component: PlacesListPage,
});
