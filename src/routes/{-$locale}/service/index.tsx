import { createFileRoute } from '@tanstack/react-router';
import { ServicePage } from '@/features/service/components/service-page';

export const Route = createFileRoute('/{-$locale}/service/')({
  component: ServicePage,
});
