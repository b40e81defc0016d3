import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { PlaceCreatePage } from '@/features/admin/places/components/place-create-page';

export const Route = createFileRoute('/{-$locale}/account/admin/places/create')({
  beforeLoad: requireAdmin,
  component: PlaceCreatePage,
});
