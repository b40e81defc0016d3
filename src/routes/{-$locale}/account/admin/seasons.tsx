import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { SeasonsPage } from '@/features/admin/seasons/components/seasons-page';

/** Seasons and the long-term price list (admins only: harbour staff get the 404 page; the database refuses their writes). */
export const Route = createFileRoute('/{-$locale}/account/admin/seasons')({
  beforeLoad: requireAdmin,
  loader: async ({ context }) => {
    // Imported here, not at the top, so the seasons code stays out of the first download.
    const { longTermPricesQueryOptions, seasonsQueryOptions } = await import('@/features/admin/seasons/api/seasons');
    await Promise.all([
      context.queryClient.ensureQueryData(seasonsQueryOptions()),
      context.queryClient.ensureQueryData(longTermPricesQueryOptions()),
    ]);
  },
  component: SeasonsPage,
});
