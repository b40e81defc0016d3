import type { ComponentProps } from 'react';
import type { ClassValue } from 'clsx';
import { Label as LabelPrimitive } from 'radix-ui';

/** How a component joins its classes with the caller's: `cn` (tailwind-merge) or plain clsx. */
export type JoinClasses = (...inputs: ClassValue[]) => string;

/**
 * The label of label.tsx, with the class joining given (label.tsx: `cn`). A page whose classes
 * never conflict can join with clsx and keep tailwind-merge out of its first download (booking
 * step 1: features/booking/components/clsx-ui.ts, checked by tests/e2e/budget.spec.ts).
 */
export function labelWith(join: JoinClasses) {
  return function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
    return (
      <LabelPrimitive.Root data-slot="label" className={join('text-sm leading-none font-medium text-slate-900', className)} {...props} />
    );
  };
}
