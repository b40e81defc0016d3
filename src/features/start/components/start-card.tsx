import type { ComponentProps } from 'react';
import { clsx } from 'clsx';
import { cardClasses } from '@/components/ui/card-classes';

/*
 * The start page's cards: the same markup and classes as src/components/ui/card.tsx, joined
 * with clsx instead of `cn`, so tailwind-merge is not in the first download of /start. The
 * variants the page needs are spelled out here instead of overriding a card class (no class
 * on /start conflicts with another: tests/e2e/budget.spec.ts checks the rendered page).
 */

export function StartCard({ primary, className, ...props }: ComponentProps<'div'> & { primary?: boolean }) {
  return (
    <div
      data-slot="card"
      className={clsx(primary ? 'rounded-xl border border-primary/30 bg-primary-light shadow-sm' : cardClasses.card, className)}
      {...props}
    />
  );
}

export function StartCardHeader(props: ComponentProps<'div'>) {
  return <div className={cardClasses.header} {...props} />;
}

/** `small`: the base size instead of the card title's `text-lg`. */
export function StartCardTitle({ small, className, ...props }: ComponentProps<'h2'> & { small?: boolean }) {
  return <h2 className={clsx(small ? 'text-base font-semibold' : cardClasses.title, className)} {...props} />;
}

export function StartCardDescription(props: ComponentProps<'p'>) {
  return <p className="text-sm text-slate-700" {...props} />;
}

export function StartCardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div className={clsx(cardClasses.content, className)} {...props} />;
}
