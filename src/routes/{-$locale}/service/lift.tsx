import { createFileRoute } from '@tanstack/react-router';
import { LiftPage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/lift')({
  component: LiftPage,
});
