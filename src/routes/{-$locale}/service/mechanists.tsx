import { createFileRoute } from '@tanstack/react-router';
import { MechanistsPage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/mechanists')({
  component: MechanistsPage,
});
