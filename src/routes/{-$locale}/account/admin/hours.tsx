import { createFileRoute } from '@tanstack/react-router';
import { HoursPage } from '@/features/harbour/hours/components/hours-page';
import { berlinToday } from '@/lib/dates';
import { isUuid } from '@/lib/ids';

/** Working hours of a month (staff their own, admins everyone's); the month (yyyy-MM) and person are in the URL. */
export const Route = createFileRoute('/{-$locale}/account/admin/hours')({
  validateSearch: (search: Record<string, unknown>): { month?: string; person?: string } => ({
    month: typeof search.month === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(search.month) ? search.month : undefined,
    person: typeof search.person === 'string' && isUuid(search.person) ? search.person : undefined,
  }),
  loaderDeps: ({ search }) => ({ month: search.month, person: search.person }),
  loader: async ({ context, deps }) => {
    const [{ hoursQueryOptions }, { berlinToday }] = await Promise.all([
      import('@/features/harbour/hours/api/hours'),
      import('@/lib/dates'),
    ]);
    await context.queryClient.prefetchQuery(hoursQueryOptions(deps.month ?? berlinToday().slice(0, 7), deps.person));
  },
  component: function AdminHours() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const current = berlinToday().slice(0, 7);
    return (
      <HoursPage
        month={search.month ?? current}
        person={search.person}
        onChange={(next) =>
          void navigate({ search: { month: next.month === current ? undefined : next.month, person: next.person }, replace: true })
        }
      />
    );
  },
});
