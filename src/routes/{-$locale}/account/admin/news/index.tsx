import { createFileRoute } from '@tanstack/react-router';
import { NewsListPage } from '@/features/admin/news/components/news-list-page';

export const Route = createFileRoute('/{-$locale}/account/admin/news/')({
  loader: async ({ context }) => {
    const { adminNewsListQueryOptions } = await import('@/features/admin/news/api/news');
    await context.queryClient.ensureQueryData(adminNewsListQueryOptions());
  },
  component: NewsListPage,
});
