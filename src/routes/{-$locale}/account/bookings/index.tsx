import { createFileRoute } from '@tanstack/react-router';
import { MyBookingsPage } from '@/features/account/components/bookings';

export const Route = createFileRoute('/{-$locale}/account/bookings/')({
  component: MyBookingsPage,
});
