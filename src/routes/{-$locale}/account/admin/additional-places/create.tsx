import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { ColumnEditPage } from '@/features/admin/additional-places/components/column-edit-page';

export const Route = createFileRoute('/{-$locale}/account/admin/additional-places/create')({
  beforeLoad: requireAdmin,
  component: function ColumnCreate() {
    return <ColumnEditPage />;
  },
});
