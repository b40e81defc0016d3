import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPage } from '@/features/legal/components/legal-pages';

export const Route = createFileRoute('/{-$locale}/privacy')({
  component: PrivacyPage,
});
