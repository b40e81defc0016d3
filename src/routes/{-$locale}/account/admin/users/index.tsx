import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { UsersListPage } from '@/features/admin/users/components/users-list-page';

/** Search text and page live in the URL (?q=…&page=2), so a list view can be shared and reloaded. */
export const Route = createFileRoute('/{-$locale}/account/admin/users/')({
  validateSearch: (search: Record<string, unknown>): { q?: string; page?: number } => {
    const q = typeof search.q === 'string' ? search.q.trim().slice(0, 100) : '';
    const page = Number(search.page);
    return { q: q || undefined, page: Number.isInteger(page) && page > 1 && page < 100000 ? page : undefined };
  },
  loaderDeps: ({ search }) => ({ q: search.q ?? '', page: search.page ?? 1 }),
  loader: async ({ context, deps }) => {
    const { adminUsersQueryOptions } = await import('@/features/admin/users/api/users');
    await context.queryClient.prefetchQuery(adminUsersQueryOptions(deps.q, deps.page));
  },
  component: function AdminUsers() {
    // getRouteApi, not Route: the split component chunk then does not import this module,
    // which would otherwise become its own chunk in the initial download.
    const route = getRouteApi('/{-$locale}/account/admin/users/');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return (
      <UsersListPage
        key={search.q ?? ''}
        search={search.q ?? ''}
        page={search.page ?? 1}
        onChange={(next) => void navigate({ search: { q: next.search || undefined, page: next.page > 1 ? next.page : undefined } })}
      />
    );
  },
});
