import { createFileRoute } from '@tanstack/react-router';
import { LongTimePlacePage } from '@/features/account/components/long-term';

/** The customer's long-term berths (a holding or berth id narrows the list) and applications. */
export const Route = createFileRoute('/{-$locale}/account/long-time-place/{-$id}')({
  component: function LongTimePlace() {
    const { id } = Route.useParams();
    return <LongTimePlacePage id={id} />;
  },
});
