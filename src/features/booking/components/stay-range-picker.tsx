import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CalendarRange } from 'lucide-react';
import { addDaysIso } from '@/lib/dates';

/** The range calendar (radix Popover, react-day-picker) loads when it is first opened, as DatePicker's. */
const DatePickerPopover = lazy(() => import('@/components/ui/date-picker-popover'));

const isDay = (v: string | undefined): v is string => /^\d{4}-\d{2}-\d{2}$/.test(v ?? '');

/**
 * Arrival and departure as one range (issue 40 item 15): the two fields stay typeable (a text
 * field each, in the page's date format), and one calendar button opens a range calendar (two
 * months side by side from 640 px, one on a phone): the first day picked is the arrival, the
 * next later one the departure; days before `min` and after `max` (the booking horizon) are
 * disabled, a departure at most `maxNights` after the arrival. Keyboard: the button is a Tab
 * stop, the calendar takes arrow keys, Page Up/Down, Enter, Escape (react-day-picker, radix).
 */
export function StayRangePicker({
  arrival,
  departure,
  onChange,
  min,
  max,
  maxNights,
  fields,
}: {
  arrival: string;
  departure: string;
  onChange: (range: { arrival: string; departure?: string }) => void;
  min: string;
  max?: string;
  maxNights: number;
  /** The two form fields (FormItems with their DatePicker calendarButton={false}). */
  fields: ReactNode;
}) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  // While picking: the arrival is chosen, the departure not yet.
  const [picking, setPicking] = useState(false);
  const button = useRef<HTMLButtonElement | null>(null);
  const popoverId = useId();
  const wide = typeof window !== 'undefined' && window.matchMedia?.('(min-width: 640px)').matches;
  const lastDeparture = picking && isDay(arrival) ? addDaysIso(arrival, maxNights) : undefined;
  const upper = lastDeparture && max ? (lastDeparture < max ? lastDeparture : max) : (lastDeparture ?? max);

  const pick = (day: string) => {
    if (picking && isDay(arrival) && day > arrival) {
      onChange({ arrival, departure: day });
      setPicking(false);
      setOpen(false);
    } else {
      onChange({ arrival: day, departure: undefined });
      setPicking(true);
    }
  };

  return (
    <div className="grid gap-2" data-slot="stay-range-picker">
      <div className="grid grid-cols-2 items-start gap-3">{fields}</div>
      <div>
        <button
          ref={button}
          type="button"
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? popoverId : undefined}
          onClick={() => {
            setOpened(true);
            setPicking(false);
            setOpen(!open);
          }}
          className="inline-flex min-h-10 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none"
        >
          <CalendarRange className="size-5" aria-hidden />
          {t`Zeitraum im Kalender wählen`}
        </button>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <DatePickerPopover
            id={popoverId}
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              if (!next) setPicking(false);
            }}
            button={button}
            input={button}
            locale={i18n.locale}
            label={picking ? t`Kalender: Abreise wählen` : t`Kalender: Anreise wählen`}
            // A departure not after the arrival (typed so) is no range end: the grid opens on the arrival.
            range={{
              from: isDay(arrival) ? arrival : undefined,
              to: !picking && isDay(departure) && isDay(arrival) && departure > arrival ? departure : undefined,
            }}
            months={wide ? 2 : 1}
            // While the departure is picked, only days after the arrival (reopening picks a new arrival).
            min={picking && isDay(arrival) ? addDaysIso(arrival, 1) : min}
            max={upper}
            onSelect={pick}
          />
        </Suspense>
      )}
    </div>
  );
}
