import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { parseNewsSearch } from '@/features/admin/shared/list-search';
import { NewsListPage } from '@/features/admin/news/components/news-list-page';

/** The table's search, sort, hidden columns and page live in the URL. */
export const Route = createFileRoute('/{-$locale}/account/admin/news/')({
  validateSearch: parseNewsSearch,
  loader: async ({ context }) => {
    const { adminNewsListQueryOptions } = await import('@/features/admin/news/api/news');
    await context.queryClient.ensureQueryData(adminNewsListQueryOptions());
  },
  component: function AdminNews() {
    const route = getRouteApi('/{-$locale}/account/admin/news/');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <NewsListPage search={search} onSearch={(next) => void navigate({ search: next, replace: true })} />;
  },
});
