import { createFileRoute } from '@tanstack/react-router';
import { CashBookPage } from '@/features/harbour/cash-book/components/cash-book-page';
import { berlinToday } from '@/lib/dates';

/** The cash book of a day (yyyy-MM-dd in the URL; today in Berlin by default) with its daily closing. */
export const Route = createFileRoute('/{-$locale}/account/admin/cash')({
  validateSearch: (search: Record<string, unknown>): { day?: string } => ({
    day: typeof search.day === 'string' && /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(search.day) ? search.day : undefined,
  }),
  loaderDeps: ({ search }) => ({ day: search.day }),
  loader: async ({ context, deps }) => {
    const [{ cashDayQueryOptions }, { berlinToday }] = await Promise.all([
      import('@/features/harbour/cash-book/api/cash-book'),
      import('@/lib/dates'),
    ]);
    await context.queryClient.prefetchQuery(cashDayQueryOptions(deps.day ?? berlinToday()));
  },
  component: function AdminCash() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const today = berlinToday();
    return (
      <CashBookPage
        day={search.day ?? today}
        onDay={(day) => void navigate({ search: { day: day === today ? undefined : day }, replace: true })}
      />
    );
  },
});
