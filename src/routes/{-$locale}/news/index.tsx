import { createFileRoute } from '@tanstack/react-router';
import { NewsListPage } from '@/features/news/components/news-pages';

export const Route = createFileRoute('/{-$locale}/news/')({
  loader: async ({ context }) => {
    const { newsListQueryOptions } = await import('@/features/news/api/news');
    return context.queryClient.ensureQueryData(newsListQueryOptions);
  },
  component: NewsListPage,
});
