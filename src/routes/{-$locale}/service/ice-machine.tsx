import { createFileRoute } from '@tanstack/react-router';
import { IceMachinePage } from '@/features/service/components/topic-pages';

export const Route = createFileRoute('/{-$locale}/service/ice-machine')({
  component: IceMachinePage,
});
