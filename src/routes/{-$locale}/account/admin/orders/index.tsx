import { createFileRoute } from '@tanstack/react-router';
import { parseOrdersSearch } from '@/features/harbour/orders/api/orders-search';
import { OrdersPage } from '@/features/harbour/orders/components/orders-page';

/**
 * The order list (staff; the admin layout route answers everyone else with 404). Filters and page
 * live in the URL. No loader: every byte of a route file is in the first download of /start.
 */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/')({
  validateSearch: parseOrdersSearch,
  component: function AdminOrders() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <OrdersPage search={search} onSearch={(next) => void navigate({ search: next })} />;
  },
});
