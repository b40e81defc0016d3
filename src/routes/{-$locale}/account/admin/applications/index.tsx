import { createFileRoute, getRouteApi } from '@tanstack/react-router';
import { parseApplicationsSearch } from '@/features/admin/long-term/api/applications-search';
import { ApplicationsListPage } from '@/features/admin/long-term/components/applications-list-page';

/** Search, status, sort, hidden columns and page live in the URL, so a list view can be shared and reloaded. */
export const Route = createFileRoute('/{-$locale}/account/admin/applications/')({
  validateSearch: parseApplicationsSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { applicationsListQueryOptions } = await import('@/features/admin/long-term/api/applications');
    await context.queryClient.prefetchQuery(applicationsListQueryOptions(deps));
  },
  component: function AdminApplications() {
    // getRouteApi, not Route: the split component chunk then does not import this module.
    const route = getRouteApi('/{-$locale}/account/admin/applications/');
    const search = route.useSearch();
    const navigate = route.useNavigate();
    return <ApplicationsListPage key={search.q ?? ''} search={search} onSearch={(next) => void navigate({ search: next })} />;
  },
});
