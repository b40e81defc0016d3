import { DayPicker } from 'react-day-picker';
import { de } from 'react-day-picker/locale/de';
import { enGB } from 'react-day-picker/locale/en-GB';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { berlinToday } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { isoDay, isoParts } from '@/components/ui/date-text';

/** A yyyy-MM-dd day as a local-midnight Date (what DayPicker's month grid works in). */
function toDate(value: string | undefined): Date | undefined {
  const parts = isoParts(value);
  return parts ? new Date(parts[0], parts[1] - 1, parts[2]) : undefined;
}

interface CalendarProps {
  locale: string;
  /** yyyy-MM-dd */
  selected?: string;
  min?: string;
  max?: string;
  onSelect: (day: string) => void;
  /**
   * A range calendar (arrival to departure): the chosen days are drawn as a range and every
   * picked day goes to onSelect, which decides whether it starts or ends the range.
   */
  range?: { from?: string; to?: string };
  /** Months side by side (a range on wide screens). */
  months?: number;
}

/**
 * shadcn's Calendar, trimmed: one month of react-day-picker 9 in the page's language (date-fns'
 * de / en-GB locales with DayPicker's translated labels; weeks start on Monday), today as in
 * Düsseldorf, days outside min/max disabled. Arrow keys move between days, Page Up/Down between
 * months, Enter picks. Loaded on demand by DatePicker.
 */
export default function Calendar({ locale, selected, min, max, onSelect, range, months = 1 }: CalendarProps) {
  const today = toDate(berlinToday())!;
  const chosen = toDate(range ? range.from : selected);
  const first = toDate(min);
  const last = toDate(max);
  const disabled = [...(first ? [{ before: first }] : []), ...(last ? [{ after: last }] : [])];
  const pick = (date: Date | undefined) => {
    if (date) onSelect(isoDay(date.getFullYear(), date.getMonth() + 1, date.getDate()));
  };
  const shared = {
    locale: locale === 'en' ? enGB : de,
    weekStartsOn: 1 as const,
    today,
    // The chosen day's month; without one (or one now out of range), the first selectable month.
    defaultMonth: chosen && !(first && chosen < first) && !(last && chosen > last) ? chosen : first && first > today ? first : today,
    disabled,
    autoFocus: true,
    className: 'p-1',
    components,
  };
  return range ? (
    <DayPicker
      {...shared}
      mode="range"
      selected={{ from: toDate(range.from), to: toDate(range.to) }}
      numberOfMonths={months}
      // The range's logic is the caller's: each picked day is handed on (DayPicker's triggerDate).
      onSelect={(_, day) => pick(day)}
      showOutsideDays={months === 1}
      classNames={{
        ...classNames,
        months: 'relative flex flex-col gap-4 sm:flex-row',
        range_start: '[&>button]:bg-primary-dark [&>button]:text-white',
        range_end: '[&>button]:bg-primary-dark [&>button]:text-white',
        range_middle: 'bg-sky-100 [&>button]:rounded-none [&>button]:bg-sky-100 [&>button]:text-slate-900',
      }}
    />
  ) : (
    <DayPicker {...shared} mode="single" required selected={chosen} showOutsideDays onSelect={pick} classNames={classNames} />
  );
}

const classNames = {
  months: 'relative flex flex-col',
  month: 'flex flex-col gap-3',
  nav: 'absolute inset-x-0 top-0 flex items-center justify-between',
  button_previous:
    'inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none disabled:opacity-40',
  button_next:
    'inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none disabled:opacity-40',
  month_caption: 'flex h-9 items-center justify-center',
  caption_label: 'font-semibold',
  month_grid: 'border-collapse',
  weekdays: 'flex',
  weekday: 'w-10 text-center text-xs font-medium text-slate-600',
  week: 'mt-1 flex',
  day: 'size-10 p-0 text-center',
  day_button:
    'inline-flex size-10 items-center justify-center rounded-md text-sm tabular-nums hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary/60 focus-visible:outline-none',
  selected: '[&>button]:bg-primary-dark [&>button]:text-white [&>button]:hover:bg-primary-dark',
  today: '[&>button]:font-bold [&>button]:underline [&>button]:underline-offset-4',
  outside: 'text-slate-400',
  disabled: 'text-slate-300 [&>button]:cursor-not-allowed [&>button]:hover:bg-transparent',
  hidden: 'invisible',
};

const components = {
  Chevron: ({ orientation, className }: { orientation?: 'left' | 'right' | 'up' | 'down'; className?: string }) => {
    const Icon = orientation === 'left' ? ChevronLeft : ChevronRight;
    return <Icon className={cn('size-5', className)} aria-hidden />;
  },
};
