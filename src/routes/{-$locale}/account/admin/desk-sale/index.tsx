import { createFileRoute } from '@tanstack/react-router';
import { DeskSalePage } from '@/features/harbour/desk-sale/components/desk-sale-page';

/** Extras sold at the desk without a booking; the receipt opens after the sale. */
export const Route = createFileRoute('/{-$locale}/account/admin/desk-sale/')({
  loader: async ({ context }) => {
    const { extrasCatalogueQueryOptions } = await import('@/features/harbour/extras/api/extras');
    await context.queryClient.prefetchQuery(extrasCatalogueQueryOptions());
  },
  component: DeskSalePage,
});
