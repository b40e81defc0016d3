import type { ComponentProps, ReactNode } from 'react';
import { clsx } from 'clsx';
import { usePageTitle } from '@/lib/page-title';

/*
 * Page, Section and Prose join a caller's classes with clsx, not `cn`: they are on /start, whose
 * first download leaves tailwind-merge out, so a caller's class adds to theirs and never
 * replaces one (no caller overrides flex, gap or max-w; tests/e2e/budget.spec.ts checks /start).
 */

/** A page with its h1 (also the document title) and an optional lead paragraph. */
export function Page({ title, lead, children, className }: { title: string; lead?: ReactNode; children?: ReactNode; className?: string }) {
  usePageTitle(title);
  return (
    <article className={clsx('flex flex-col gap-6', className)}>
      <header className="flex flex-col gap-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 md:text-3xl">{title}</h1>
        {lead && <p className="max-w-prose text-slate-700 [overflow-wrap:anywhere]">{lead}</p>}
      </header>
      {children}
    </article>
  );
}

export function Section({ title, children, className, ...props }: Omit<ComponentProps<'section'>, 'title'> & { title: ReactNode }) {
  return (
    <section className={clsx('flex flex-col gap-3', className)} {...props}>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

export function Prose({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={clsx(
        'flex max-w-prose flex-col gap-3 leading-relaxed text-slate-800 [&_a]:text-primary-dark [&_a]:underline [&_ul]:list-disc [&_ul]:pl-5',
        className,
      )}
      {...props}
    />
  );
}

/** A two-column price or fact list. */
export function FactList({ items }: { items: { label: ReactNode; value: ReactNode }[] }) {
  return (
    <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {items.map((item, i) => (
        <div key={i} className="flex items-baseline justify-between gap-4 px-4 py-3">
          <dt className="text-slate-800">{item.label}</dt>
          <dd className="min-w-0 text-right font-semibold text-slate-900 [overflow-wrap:anywhere]">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
