import { createFileRoute } from '@tanstack/react-router';
import { CharterPage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/charter')({
  component: CharterPage,
});
