import { createFileRoute, notFound } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { PlaceEditPage } from '@/features/admin/places/components/place-edit-page';

export const Route = createFileRoute('/{-$locale}/account/admin/places/$id/edit')({
  beforeLoad: requireAdmin,
  loader: async ({ context, params }) => {
    const { adminPlaceQueryOptions } = await import('@/features/admin/places/api/places');
    const place = await context.queryClient.ensureQueryData(adminPlaceQueryOptions(params.id));
    if (!place) throw notFound();
  },
  component: function PlaceEdit() {
    const { id } = Route.useParams();
    return <PlaceEditPage id={id} />;
  },
});
