import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { InterimPage } from '@/features/account/components/account-pages';

export const Route = createFileRoute('/{-$locale}/account/admin/overview')({
  component: function AdminOverview() {
    const { t } = useLingui();
    return <InterimPage title={t`Übersicht`} />;
  },
});
