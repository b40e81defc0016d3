import { createFileRoute, notFound } from '@tanstack/react-router';
import { NewsItemPage } from '@/features/news/components/news-pages';

export const Route = createFileRoute('/{-$locale}/news/$id')({
  // An unknown, ended or not yet begun item is the 404 page (RLS hides it from visitors).
  loader: async ({ context, params }) => {
    const { newsItemQueryOptions } = await import('@/features/news/api/news');
    const item = await context.queryClient.ensureQueryData(newsItemQueryOptions(params.id));
    if (!item) throw notFound();
    return item;
  },
  component: function NewsItem() {
    const { id } = Route.useParams();
    return <NewsItemPage id={id} />;
  },
});
