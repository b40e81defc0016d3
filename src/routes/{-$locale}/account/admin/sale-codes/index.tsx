import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { parseCodesSearch } from '@/features/admin/shared/list-search';
import { SaleCodesPage } from '@/features/admin/sale-codes/components/sale-codes-page';

/** The table's search, sort, hidden columns and page live in the URL. */
export const Route = createFileRoute('/{-$locale}/account/admin/sale-codes/')({
  validateSearch: parseCodesSearch,
  loader: async ({ context }) => {
    const { saleCodesQueryOptions } = await import('@/features/admin/sale-codes/api/sale-codes');
    await context.queryClient.ensureQueryData(saleCodesQueryOptions());
  },
  component: function AdminSaleCodes() {
    const route = getRouteApi('/{-$locale}/account/admin/sale-codes/');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <SaleCodesPage search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />;
  },
});
