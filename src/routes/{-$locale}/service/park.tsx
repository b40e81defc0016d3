import { createFileRoute } from '@tanstack/react-router';
import { ParkPage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/park')({
  component: ParkPage,
});
