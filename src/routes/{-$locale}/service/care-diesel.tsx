import { createFileRoute } from '@tanstack/react-router';
import { CareDieselPage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/care-diesel')({
  component: CareDieselPage,
});
