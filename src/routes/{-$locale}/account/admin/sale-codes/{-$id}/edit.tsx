import { createFileRoute, getRouteApi, redirect } from '@tanstack/react-router';
import { SaleCodeEditPage } from '@/features/admin/sale-codes/components/sale-code-form-page';

/** sale-codes/{id?}/edit (spec): without an id there is nothing to edit, so it is the create form. */
export const Route = createFileRoute('/{-$locale}/account/admin/sale-codes/{-$id}/edit')({
  beforeLoad: ({ params }) => {
    if (!params.id) throw redirect({ to: '/{-$locale}/account/admin/sale-codes/create', params: { locale: params.locale }, replace: true });
  },
  loader: async ({ context, params }) => {
    const { saleCodeQueryOptions } = await import('@/features/admin/sale-codes/api/sale-codes');
    if (params.id) await context.queryClient.ensureQueryData(saleCodeQueryOptions(params.id));
  },
  component: function AdminSaleCodeEdit() {
    const { id } = getRouteApi('/{-$locale}/account/admin/sale-codes/{-$id}/edit').useParams();
    return <SaleCodeEditPage id={id ?? ''} />;
  },
});
