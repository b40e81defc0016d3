import { createFileRoute, useParams } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { PlaceEditPage } from '@/features/admin/places/components/place-edit-page';

/** An unknown id shows the 404 page (from the component, see places/index.tsx). */
export const Route = createFileRoute('/{-$locale}/account/admin/places/$id/edit')({
  beforeLoad: requireAdmin,
  component: function PlaceEdit() {
    // useParams with `from`, not Route.useParams: keeps this route file out of a shared chunk (initial JS budget).
    const { id } = useParams({ from: '/{-$locale}/account/admin/places/$id/edit' });
    return <PlaceEditPage id={id} />;
  },
});
