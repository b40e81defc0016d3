import { createFileRoute } from '@tanstack/react-router';
import { SaleCodesPage } from '@/features/admin/sale-codes/components/sale-codes-page';

export const Route = createFileRoute('/{-$locale}/account/admin/sale-codes/')({
  loader: async ({ context }) => {
    const { saleCodesQueryOptions } = await import('@/features/admin/sale-codes/api/sale-codes');
    await context.queryClient.ensureQueryData(saleCodesQueryOptions());
  },
  component: SaleCodesPage,
});
