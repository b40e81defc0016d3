import { createFileRoute } from '@tanstack/react-router';
import { StartPage } from '@/features/start/components/start-page';

export const Route = createFileRoute('/{-$locale}/')({
  component: StartPage,
});
