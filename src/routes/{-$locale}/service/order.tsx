import { createFileRoute } from '@tanstack/react-router';
import { ServiceOrderPage } from '@/features/service/components/service-order-page';

export const Route = createFileRoute('/{-$locale}/service/order')({
  component: ServiceOrderPage,
});
