import { createFileRoute, useParams } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { ColumnEditPage } from '@/features/admin/additional-places/components/column-edit-page';

export const Route = createFileRoute('/{-$locale}/account/admin/additional-places/$id/edit')({
  beforeLoad: requireAdmin,
  component: function ColumnEdit() {
    const { id } = useParams({ from: '/{-$locale}/account/admin/additional-places/$id/edit' });
    return <ColumnEditPage id={id} />;
  },
});
