import { createFileRoute } from '@tanstack/react-router';
import { TermsPage } from '@/features/legal/components/legal-pages';

export const Route = createFileRoute('/{-$locale}/terms')({
  component: TermsPage,
});
