import { createFileRoute } from '@tanstack/react-router';
import { ApplyLongTimePlacePage } from '@/features/account/components/long-term';

/** Apply for a long-term berth; with a berth id that berth is preselected. */
export const Route = createFileRoute('/{-$locale}/account/apply-long-time-place/{-$id}')({
  component: function ApplyLongTimePlace() {
    const { id } = Route.useParams();
    return <ApplyLongTimePlacePage id={id} />;
  },
});
