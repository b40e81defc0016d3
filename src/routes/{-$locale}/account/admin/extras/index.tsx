import { createFileRoute } from '@tanstack/react-router';
import { ExtrasAdminPage } from '@/features/harbour/extras/components/extras-admin-page';

/** The price list admins maintain: berth tariffs and the catalogue of extras (prices, VAT rates, deposits). */
export const Route = createFileRoute('/{-$locale}/account/admin/extras/')({
  loader: async ({ context }) => {
    const { extrasCatalogueQueryOptions, tariffsQueryOptions } = await import('@/features/harbour/extras/api/extras');
    await Promise.all([
      context.queryClient.ensureQueryData(extrasCatalogueQueryOptions()),
      context.queryClient.ensureQueryData(tariffsQueryOptions()),
    ]);
  },
  component: ExtrasAdminPage,
});
