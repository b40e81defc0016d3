import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { DatevPage } from '@/features/admin/datev/components/datev-page';

/** The DATEV export (admins only: harbour staff get the 404 page; the database refuses them too). */
export const Route = createFileRoute('/{-$locale}/account/admin/datev')({
  beforeLoad: requireAdmin,
  loader: async ({ context }) => {
    // Imported here, not at the top, so the export's code stays out of the first download.
    const { datevSettingsQueryOptions } = await import('@/features/admin/datev/api/datev');
    await context.queryClient.ensureQueryData(datevSettingsQueryOptions());
  },
  component: DatevPage,
});
