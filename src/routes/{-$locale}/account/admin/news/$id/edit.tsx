import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { NewsEditPage } from '@/features/admin/news/components/news-form-page';

export const Route = createFileRoute('/{-$locale}/account/admin/news/$id/edit')({
  loader: async ({ context, params }) => {
    const { adminNewsQueryOptions } = await import('@/features/admin/news/api/news');
    await context.queryClient.ensureQueryData(adminNewsQueryOptions(params.id));
  },
  component: function AdminNewsEdit() {
    const { id } = getRouteApi('/{-$locale}/account/admin/news/$id/edit').useParams();
    return <NewsEditPage id={id} />;
  },
});
