import { createFileRoute } from '@tanstack/react-router';
import { SkipperTrainingPage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/skipper-training')({
  component: SkipperTrainingPage,
});
