import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { ReportsPage } from '@/features/admin/reports/components/reports-page';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: unknown): v is string => typeof v === 'string' && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

/** This calendar year in Düsseldorf, the default range (date code loaded on demand: see loader). */
const thisYear = async () => {
  const { berlinToday } = await import('@/lib/dates');
  const year = berlinToday().slice(0, 4);
  return { from: `${year}-01-01`, to: `${year}-12-31` };
};

/** Admin reports (admins only: harbour staff get the 404 page; the report functions refuse them too). Range in the URL: ?from=&to= (Berlin days, inclusive). */
export const Route = createFileRoute('/{-$locale}/account/admin/reports')({
  beforeLoad: requireAdmin,
  // A range that is not two valid days in order, at most 1100 days apart, falls back to the default.
  validateSearch: (search: Record<string, unknown>): { from?: string; to?: string } => {
    const { from, to } = search;
    if (!validDay(from) || !validDay(to) || to < from || (Date.parse(to) - Date.parse(from)) / 86_400_000 > 1100) return {};
    return { from, to };
  },
  loaderDeps: ({ search }) => ({ from: search.from, to: search.to }),
  loader: async ({ context, deps }) => {
    // Imported here, not at the top, so the reports' code stays out of the first download.
    const { reportsQueryOptions } = await import('@/features/admin/reports/api/reports');
    const range = deps.from && deps.to ? { from: deps.from, to: deps.to } : await thisYear();
    await context.queryClient.prefetchQuery(reportsQueryOptions(range.from, range.to));
    return range;
  },
  component: function AdminReports() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const fallback = Route.useLoaderData();
    const range = search.from && search.to ? { from: search.from, to: search.to } : fallback;
    return <ReportsPage from={range.from} to={range.to} onRangeChange={(next) => void navigate({ search: next })} />;
  },
});
