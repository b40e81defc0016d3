import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { NotFoundPage } from '@/components/errors/not-found-page';
import { buttonVariants } from '@/components/ui/button';
import { type CalendarView, CalendarPage } from '@/features/harbour/calendar';
import { berlinToday } from '@/lib/dates';
import { adminPlaceQueryOptions } from '@/features/admin/places/api/places';

/** One berth's calendar: the live harbour calendar, filtered to the berth (a month by default). */
export function PlaceCalendarPage({
  id,
  from,
  view,
  onChange,
}: {
  id: string;
  from?: string;
  view: CalendarView;
  onChange: (next: { from: string; view: CalendarView }) => void;
}) {
  const { data: place, isSuccess } = useQuery(adminPlaceQueryOptions(id));
  if (isSuccess && !place) return <NotFoundPage />;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap gap-2">
        <Link to="/{-$locale}/account/admin/places/$id/edit" params={{ id }} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          <Trans>Zurück zu {place?.name ?? ''}</Trans>
        </Link>
      </div>
      <CalendarPage placeId={id} from={from ?? berlinToday()} view={view} onChange={onChange} />
    </div>
  );
}
