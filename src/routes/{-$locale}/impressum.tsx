import { createFileRoute } from '@tanstack/react-router';
import { ImpressumPage } from '@/features/legal/components/legal-pages';

export const Route = createFileRoute('/{-$locale}/impressum')({
  component: ImpressumPage,
});
