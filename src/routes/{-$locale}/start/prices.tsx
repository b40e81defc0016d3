import { createFileRoute } from '@tanstack/react-router';
import { PricesPage } from '@/features/prices/components/prices-page';

export const Route = createFileRoute('/{-$locale}/start/prices')({
  component: PricesPage,
});
