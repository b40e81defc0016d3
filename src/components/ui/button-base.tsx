import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import type { VariantProps } from 'class-variance-authority';
import { buttonVariants } from '@/components/ui/button-variants';
import type { JoinClasses } from '@/components/ui/label-base';

/** The button of button.tsx, with the class joining given (button.tsx: `cn`; see label-base.tsx). */
export function buttonWith(join: JoinClasses) {
  return function Button({
    className,
    variant,
    size,
    asChild = false,
    ...props
  }: ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean }) {
    const Comp = asChild ? Slot.Root : 'button';
    return <Comp data-slot="button" className={join(buttonVariants({ variant, size, className }))} {...props} />;
  };
}
