import { createFileRoute, notFound } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { ColumnEditPage } from '@/features/admin/additional-places/components/column-edit-page';

export const Route = createFileRoute('/{-$locale}/account/admin/additional-places/$id/edit')({
  beforeLoad: requireAdmin,
  loader: async ({ context, params }) => {
    const { columnQueryOptions } = await import('@/features/admin/additional-places/api/additional-places');
    const column = await context.queryClient.ensureQueryData(columnQueryOptions(params.id));
    if (!column) throw notFound();
  },
  component: function ColumnEdit() {
    const { id } = Route.useParams();
    return <ColumnEditPage id={id} />;
  },
});
