import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { parseOffersSearch } from '@/features/admin/long-term/api/offers-search';
import { OffersPage } from '@/features/admin/long-term/components/offers-page';

/** Offers from the waiting list and contracts (admins only: applications hold personal data only admins read). */
export const Route = createFileRoute('/{-$locale}/account/admin/offers')({
  beforeLoad: requireAdmin,
  validateSearch: parseOffersSearch,
  component: function AdminOffers() {
    const route = getRouteApi('/{-$locale}/account/admin/offers');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <OffersPage search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />;
  },
});
