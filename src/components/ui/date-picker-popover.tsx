import { lazy, Suspense, type RefObject } from 'react';
import { Popover as PopoverPrimitive } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';

/** The month grid (react-day-picker and date-fns' locales) loads when the calendar is first opened. */
const Calendar = lazy(() => import('@/components/ui/calendar'));

/**
 * The date picker's calendar popover (radix Popover: positioning, dismissal, layers), a chunk
 * of its own that loads when a calendar is first opened (date-picker.tsx). It is anchored to the
 * picker's calendar button, which toggles it.
 */
export default function DatePickerPopover({
  id,
  open,
  onOpenChange,
  button,
  input,
  locale,
  selected,
  min,
  max,
  onSelect,
  range,
  months,
  label,
}: {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  button: RefObject<HTMLButtonElement | null>;
  input: RefObject<HTMLElement | null>;
  locale: string;
  selected?: string;
  min?: string;
  max?: string;
  onSelect: (day: string) => void;
  /** A range calendar (calendar.tsx). */
  range?: { from?: string; to?: string };
  months?: number;
  label?: string;
}) {
  const { t } = useLingui();
  return (
    <PopoverPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <PopoverPrimitive.Anchor virtualRef={button as RefObject<HTMLButtonElement>} />
      <PopoverPrimitive.Portal>
        <PopoverPrimitive.Content
          id={id}
          align="end"
          sideOffset={4}
          collisionPadding={8}
          aria-label={label ?? t`Kalender`}
          data-slot="date-picker-calendar"
          className="z-50 rounded-md border border-slate-200 bg-white p-2 shadow-lg outline-none"
          onOpenAutoFocus={(e) => e.preventDefault()}
          onCloseAutoFocus={(e) => {
            // Back to the text field (picked, Escape or a click outside), which shows the day.
            e.preventDefault();
            input.current?.focus();
          }}
          // The calendar button toggles (as radix's own trigger does): a press on it is not "outside".
          onInteractOutside={(e) => {
            if (e.target instanceof Node && button.current?.contains(e.target)) e.preventDefault();
          }}
        >
          <Suspense fallback={<p className="p-4 text-sm text-slate-600">{t`Wird geladen …`}</p>}>
            <Calendar locale={locale} selected={selected} min={min} max={max} onSelect={onSelect} range={range} months={months} />
          </Suspense>
        </PopoverPrimitive.Content>
      </PopoverPrimitive.Portal>
    </PopoverPrimitive.Root>
  );
}
