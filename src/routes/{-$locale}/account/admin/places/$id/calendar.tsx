import { createFileRoute, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import type { CalendarView } from '@/features/harbour/calendar/api/calendar';
import { requireAdmin } from '@/lib/auth';
import { PlaceCalendarPage } from '@/features/admin/places/components/place-calendar-page';

const VIEWS = ['day', 'week', 'month'] as const;

/** One berth's month from the live harbour calendar (admins). */
export const Route = createFileRoute('/{-$locale}/account/admin/places/$id/calendar')({
  beforeLoad: requireAdmin,
  validateSearch: (search: Record<string, unknown>): { from?: string; view?: CalendarView } => ({
    from: typeof search.from === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(search.from) ? search.from : undefined,
    view: VIEWS.find((v) => v === search.view),
  }),
  component: function PlaceCalendar() {
    const from = '/{-$locale}/account/admin/places/$id/calendar';
    const { id } = useParams({ from });
    const search = useSearch({ from });
    const navigate = useNavigate({ from });
    return (
      <PlaceCalendarPage
        id={id}
        from={search.from}
        view={search.view ?? 'month'}
        onChange={(next) =>
          void navigate({ search: { from: next.from, view: next.view === 'month' ? undefined : next.view }, replace: true })
        }
      />
    );
  },
});
