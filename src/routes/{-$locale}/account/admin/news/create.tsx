import { createFileRoute } from '@tanstack/react-router';
import { NewsCreatePage } from '@/features/admin/news/components/news-form-page';

export const Route = createFileRoute('/{-$locale}/account/admin/news/create')({
  component: NewsCreatePage,
});
