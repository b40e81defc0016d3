import { lazy, Suspense, useId, useRef, useState, type ComponentProps, type Ref } from 'react';
import { useLingui } from '@lingui/react/macro';
import { CalendarDays } from 'lucide-react';
import { clsx } from 'clsx';
import { dateTextPattern, formatDateText, parseDateText } from '@/components/ui/date-text';

/**
 * The calendar (radix Popover, react-day-picker and date-fns' locales) loads when it is first
 * opened: a page with a date field does not download them before.
 */
const DatePickerPopover = lazy(() => import('@/components/ui/date-picker-popover'));

/**
 * The wrapper's classes: full width unless `className` sets a width (callers give `w-44`). Joined
 * with clsx, as tailwind-merge would have resolved them: no tailwind-merge in the first download
 * of /start/booking, whose step 1 has two date fields.
 */
const wrapperClasses = (className?: string) =>
  clsx('relative flex', !/(^|\s)w-/.test(className ?? '') && 'w-full', 'items-center', className);

type InputProps = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type' | 'min' | 'max' | 'defaultValue'>;

export interface DatePickerProps extends InputProps {
  /** The day as yyyy-MM-dd ('' for none), as a native date input's value. */
  value: string | undefined | null;
  /**
   * Called with the day as yyyy-MM-dd when a whole, real day is typed or picked, with '' when
   * the field is emptied, and (when the field is left) with the typed text when it is no day,
   * so a form's schema reports it.
   */
  onChange: (value: string) => void;
  /** Earliest and latest selectable day (yyyy-MM-dd). */
  min?: string;
  max?: string;
  ref?: Ref<HTMLInputElement>;
  /** false: a text field only (a range picker's fields share one calendar button, StayRangePicker). */
  calendarButton?: boolean;
}

/**
 * A date field that follows the page's language, not the browser's: a text field in the page's
 * order (29.08.2031 / 29/08/2031) and a button opening a month calendar (shadcn's Calendar in a
 * Popover, date-picker-popover.tsx: react-day-picker with the date-fns locale, weeks from Monday). The value stays a
 * yyyy-MM-dd string, a Berlin calendar day, so schemas and RPCs are unchanged; works as a
 * react-hook-form field ({...field}) and takes FormControl's id/aria props on its text field.
 */
export function DatePicker({
  value,
  onChange,
  onBlur,
  min,
  max,
  className,
  disabled,
  ref,
  calendarButton = true,
  ...inputProps
}: DatePickerProps) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const [text, setText] = useState(() => formatDateText(value, locale));
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on (then kept, so it closes with its own animation and focus return).
  const [opened, setOpened] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);
  const popoverId = useId();
  const openCalendar = (next: boolean) => {
    if (next) setOpened(true);
    setOpen(next);
  };
  // What this field last handed on; a different value comes from outside (a form reset, another
  // field, the URL) and replaces the text. A new page language rewrites the same day its way.
  const current = value ?? '';
  const [seen, setSeen] = useState({ value: current, locale, emitted: current });
  if (seen.value !== current || seen.locale !== locale) {
    const outside = current !== seen.emitted;
    setSeen({ value: current, locale, emitted: outside ? current : seen.emitted });
    if (outside) setText(formatDateText(current, locale));
    else if (seen.locale !== locale) {
      const day = parseDateText(text);
      if (day) setText(formatDateText(day, locale));
    }
  }

  const emit = (next: string) => {
    setSeen((previous) => ({ ...previous, emitted: next }));
    onChange(next);
  };

  const pick = (day: string) => {
    setText(formatDateText(day, locale));
    emit(day);
    setOpen(false);
  };

  return (
    <div className={wrapperClasses(className)} data-slot="date-picker">
      <input
        {...inputProps}
        ref={(element) => {
          input.current = element;
          if (typeof ref === 'function') ref(element);
          else if (ref) ref.current = element;
        }}
        type="text"
        inputMode="text"
        autoComplete="off"
        disabled={disabled}
        value={text}
        placeholder={dateTextPattern(locale)}
        data-slot="input"
        data-date-field=""
        data-value={value ?? ''}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          const day = parseDateText(next);
          if (day) emit(day);
          else if (next.trim() === '') emit('');
        }}
        onBlur={(e) => {
          const typed = e.currentTarget.value;
          const day = parseDateText(typed);
          if (day) setText(formatDateText(day, locale));
          else if (typed.trim() !== '' && seen.emitted !== typed) emit(typed);
          onBlur?.(e);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && e.altKey) {
            e.preventDefault();
            openCalendar(true);
          }
        }}
        className={clsx(
          calendarButton ? 'pr-11' : 'pr-3',
          'flex h-10 w-full rounded-md border border-slate-300 bg-white py-2 pl-3 text-base tabular-nums placeholder:text-slate-500 focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none disabled:opacity-50 aria-invalid:border-red-700',
        )}
      />
      {calendarButton && (
        <button
          ref={button}
          type="button"
          disabled={disabled}
          aria-label={t`Kalender öffnen`}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? popoverId : undefined}
          data-state={open ? 'open' : 'closed'}
          onClick={() => openCalendar(!open)}
          className="absolute right-0.5 inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none disabled:opacity-50"
        >
          <CalendarDays className="size-5" aria-hidden />
        </button>
      )}
      {calendarButton && opened && (
        <Suspense fallback={null}>
          <DatePickerPopover
            id={popoverId}
            open={open}
            onOpenChange={setOpen}
            button={button}
            input={input}
            locale={locale}
            selected={parseDateText(text) ?? undefined}
            min={min}
            max={max}
            onSelect={pick}
          />
        </Suspense>
      )}
    </div>
  );
}

/** For filters that take only a whole day or nothing (not the typed text DatePicker hands on when a field is left). */
export function isDateOrEmpty(value: string): boolean {
  return value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value);
}
