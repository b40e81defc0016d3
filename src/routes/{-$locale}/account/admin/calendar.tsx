import { createFileRoute } from '@tanstack/react-router';
import type { CalendarView } from '@/features/harbour/calendar/api/calendar';
import { CalendarPage } from '@/features/harbour/calendar/components/calendar-page';
import { berlinToday } from '@/lib/dates';

const VIEWS = ['day', 'week', 'month'] as const;

/** The live berth calendar (staff; the admin layout route answers everyone else with 404). */
export const Route = createFileRoute('/{-$locale}/account/admin/calendar')({
  validateSearch: (search: Record<string, unknown>): { from?: string; view?: CalendarView } => ({
    from: typeof search.from === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(search.from) ? search.from : undefined,
    view: VIEWS.find((v) => v === search.view),
  }),
  loaderDeps: ({ search }) => ({ from: search.from, view: search.view }),
  loader: async ({ context, deps }) => {
    // Imported here, not at the top, so the calendar's code stays out of the first download.
    const [{ calendarBlockQueryOptions, calendarPlacesQueryOptions, calendarRange, PLACE_BLOCK }, { berlinToday }] = await Promise.all([
      import('@/features/harbour/calendar/api/calendar'),
      import('@/lib/dates'),
    ]);
    const range = calendarRange(deps.from ?? berlinToday(), deps.view ?? 'week');
    // The berths, then the first block's occupations (the rows on screen first; the page loads the rest as it scrolls).
    const places = await context.queryClient.ensureQueryData(calendarPlacesQueryOptions());
    const names = new Map(places.map((p) => [p.id, p.name]));
    await context.queryClient.prefetchQuery(
      calendarBlockQueryOptions(
        range.from,
        range.to,
        places.slice(0, PLACE_BLOCK).map((p) => p.id),
        names,
      ),
    );
  },
  component: function AdminCalendar() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <CalendarPage
        from={search.from ?? berlinToday()}
        view={search.view ?? 'week'}
        onChange={(next) =>
          void navigate({
            search: { from: next.from === berlinToday() ? undefined : next.from, view: next.view === 'week' ? undefined : next.view },
            replace: true,
          })
        }
      />
    );
  },
});
