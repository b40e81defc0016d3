import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '@/features/admin/settings/components/settings-page';

export const Route = createFileRoute('/{-$locale}/account/admin/settings/')({
  loader: async ({ context }) => {
    const { fairPeriodsQueryOptions, harbourAccessQueryOptions, paymentModesQueryOptions } = await import('@/features/admin/settings/api/settings');
    await Promise.all([
      context.queryClient.ensureQueryData(fairPeriodsQueryOptions()),
      context.queryClient.ensureQueryData(harbourAccessQueryOptions()),
      context.queryClient.ensureQueryData(paymentModesQueryOptions()),
    ]);
  },
  component: SettingsPage,
});
