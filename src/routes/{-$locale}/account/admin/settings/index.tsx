import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '@/features/admin/settings/components/settings-page';

export const Route = createFileRoute('/{-$locale}/account/admin/settings/')({
  loader: async ({ context }) => {
    const [
      { fairPeriodsQueryOptions, harbourAccessQueryOptions, paymentModesQueryOptions, sellerSettingsQueryOptions, twoFactorQueryOptions },
      { datevSettingsQueryOptions },
      { startIntroQueryOptions },
      { bookingHorizonQueryOptions },
      { sepaSettingsQueryOptions },
      { gaugeThresholdsQueryOptions },
    ] = await Promise.all([
      import('@/features/admin/settings/api/settings'),
      import('@/features/admin/datev/api/datev'),
      import('@/features/admin/settings/api/start-intro'),
      import('@/features/admin/settings/api/booking-horizon'),
      import('@/features/admin/settings/api/sepa'),
      import('@/features/admin/settings/api/gauge-thresholds'),
    ]);
    await Promise.all([
      context.queryClient.ensureQueryData(fairPeriodsQueryOptions()),
      context.queryClient.ensureQueryData(harbourAccessQueryOptions()),
      context.queryClient.ensureQueryData(paymentModesQueryOptions()),
      context.queryClient.ensureQueryData(twoFactorQueryOptions()),
      context.queryClient.ensureQueryData(sellerSettingsQueryOptions()),
      context.queryClient.ensureQueryData(datevSettingsQueryOptions()),
      context.queryClient.ensureQueryData(startIntroQueryOptions()),
      context.queryClient.ensureQueryData(bookingHorizonQueryOptions()),
      context.queryClient.ensureQueryData(sepaSettingsQueryOptions()),
      context.queryClient.ensureQueryData(gaugeThresholdsQueryOptions()),
    ]);
  },
  component: SettingsPage,
});
