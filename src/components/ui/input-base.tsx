import type { ComponentProps } from 'react';
import type { JoinClasses } from '@/components/ui/label-base';

/** The text field of input.tsx, with the class joining given (input.tsx: `cn`; see label-base.tsx). */
export function inputWith(join: JoinClasses) {
  return function Input({ className, type, ...props }: ComponentProps<'input'>) {
    return (
      <input
        type={type}
        data-slot="input"
        className={join(
          'flex h-10 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base placeholder:text-slate-500 focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none disabled:opacity-50 aria-invalid:border-red-700',
          className,
        )}
        {...props}
      />
    );
  };
}
