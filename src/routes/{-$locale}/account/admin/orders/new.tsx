import { createFileRoute } from '@tanstack/react-router';
import { WalkInPage } from '@/features/harbour/orders/components/walk-in-page';
import { isUuid } from '@/lib/ids';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A booking for a walk-in or phone guest, made by staff; the timeline presets berth and dates. */
export const Route = createFileRoute('/{-$locale}/account/admin/orders/new')({
  validateSearch: (search: Record<string, unknown>): { place?: string; arrival?: string; departure?: string } => ({
    place: typeof search.place === 'string' && isUuid(search.place) ? search.place : undefined,
    arrival: typeof search.arrival === 'string' && DAY.test(search.arrival) ? search.arrival : undefined,
    departure: typeof search.departure === 'string' && DAY.test(search.departure) ? search.departure : undefined,
  }),
  component: function AdminNewOrder() {
    const navigate = Route.useNavigate();
    const search = Route.useSearch();
    return <WalkInPage preset={search} onBooked={(id) => void navigate({ to: '/{-$locale}/account/admin/orders/$id', params: { id } })} />;
  },
});
