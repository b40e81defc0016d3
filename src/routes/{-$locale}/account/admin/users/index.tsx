import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { parseUsersSearch } from '@/features/admin/users/api/users-search';
import { UsersListPage } from '@/features/admin/users/components/users-list-page';

/** Search, filters, sort, hidden columns and page live in the URL, so a list view can be shared and reloaded. */
export const Route = createFileRoute('/{-$locale}/account/admin/users/')({
  validateSearch: parseUsersSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { adminUsersQueryOptions } = await import('@/features/admin/users/api/users');
    await context.queryClient.prefetchQuery(adminUsersQueryOptions(deps));
  },
  component: function AdminUsers() {
    // getRouteApi, not Route: the split component chunk then does not import this module,
    // which would otherwise become its own chunk in the initial download.
    const route = getRouteApi('/{-$locale}/account/admin/users/');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <UsersListPage key={search.q ?? ''} search={search} onSearch={(next) => void navigate({ search: next })} />;
  },
});
