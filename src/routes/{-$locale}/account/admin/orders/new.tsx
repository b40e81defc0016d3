import { createFileRoute } from '@tanstack/react-router';
import { WalkInPage } from '@/features/harbour/components/walk-in-page';

/** A booking for a walk-in or phone guest, made by staff. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/new')({
  component: function AdminNewOrder() {
    const navigate = Route.useNavigate();
    return <WalkInPage onBooked={(id) => void navigate({ to: '/{-$locale}/account/admin/orders/$id', params: { id } })} />;
  },
});
