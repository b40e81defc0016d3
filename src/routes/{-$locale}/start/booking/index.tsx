import { createFileRoute } from '@tanstack/react-router';
import { BookingPage } from '@/features/booking/components/booking-pages';

export const Route = createFileRoute('/{-$locale}/start/booking/')({
  component: BookingPage,
});
