import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { InterimPage } from '@/features/account/components/account-pages';

export const Route = createFileRoute('/{-$locale}/account/bookings/$id/')({
  component: function Interim() {
    const { t } = useLingui();
    return <InterimPage title={t`Buchung`} />;
  },
});
