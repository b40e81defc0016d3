import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { parsePlacesSearch } from '@/features/admin/shared/list-search';
import { PlacesListPage } from '@/features/admin/places/components/places-list-page';

/**
 * Berths (admins only; staff get the 404 page, RLS refuses their writes anyway). No loader: the
 * page queries itself, which keeps these route files tiny in the first download. The table's
 * search, filters, sort, hidden columns and page live in the URL.
 */
export const Route = createFileRoute('/{-$locale}/account/admin/places/')({
  beforeLoad: requireAdmin,
  validateSearch: parsePlacesSearch,
  component: function AdminPlaces() {
    const route = getRouteApi('/{-$locale}/account/admin/places/');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <PlacesListPage search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />;
  },
});
