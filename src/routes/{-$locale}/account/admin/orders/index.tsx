import { createFileRoute } from '@tanstack/react-router';
import { parseOrdersSearch } from '@/features/harbour/api/orders-search';
import { OrdersPage } from '@/features/harbour/components/orders-page';

/** The order list (staff; the admin layout route answers everyone else with 404). Filters and page live in the URL. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/')({
  validateSearch: parseOrdersSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    // Imported here, not at the top, so the orders code stays out of the first download.
    const { staffOrdersQueryOptions } = await import('@/features/harbour/api/orders');
    await context.queryClient.prefetchQuery(staffOrdersQueryOptions(deps));
  },
  component: function AdminOrders() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <OrdersPage search={search} onSearch={(next) => void navigate({ search: next })} />;
  },
});
