import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { ReportsPage } from '@/features/admin/reports/components/reports-page';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: unknown): v is string =>
  typeof v === 'string' &&
  DAY.test(v) &&
  !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
  new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

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
    const [{ reportsQueryOptions }, { resolveRange }, { berlinToday }] = await Promise.all([
      import('@/features/admin/reports/api/reports'),
      import('@/features/admin/reports/lib/range'),
      import('@/lib/dates'),
    ]);
    const range = resolveRange(deps.from, deps.to, berlinToday());
    await context.queryClient.prefetchQuery(reportsQueryOptions(range.from, range.to));
  },
  component: function AdminReports() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <ReportsPage from={search.from} to={search.to} onRangeChange={(next) => void navigate({ search: next })} />;
  },
});
