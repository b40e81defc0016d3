import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { inputWith } from '@/components/ui/input-base';

export const Input = inputWith(cn);

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(
        'flex min-h-28 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base placeholder:text-slate-500 focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none aria-invalid:border-red-700',
        className,
      )}
      {...props}
    />
  );
}
