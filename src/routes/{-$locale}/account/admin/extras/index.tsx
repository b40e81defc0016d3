import { createFileRoute } from '@tanstack/react-router';
import { ExtrasAdminPage } from '@/features/harbour/components/extras-admin-page';

/** The catalogue of extras (prices, VAT rates, deposits) that admins maintain. */
export const Route = createFileRoute('/{-$locale}/account/admin/extras/')({
  loader: async ({ context }) => {
    const { extrasCatalogueQueryOptions } = await import('@/features/harbour/api/extras');
    await context.queryClient.ensureQueryData(extrasCatalogueQueryOptions());
  },
  component: ExtrasAdminPage,
});
