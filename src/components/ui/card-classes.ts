/**
 * The card's classes, shared by card.tsx (joined with `cn`, so a caller's class may override
 * one) and the start page's cards (src/features/start/components/start-card.tsx), which join
 * with clsx to keep tailwind-merge out of the first download.
 */
export const cardClasses = {
  card: 'rounded-xl border border-slate-200 bg-white shadow-sm',
  header: 'flex flex-col gap-1 p-4 pb-2',
  title: 'text-lg leading-tight font-semibold',
  description: 'text-sm text-slate-600',
  content: 'p-4 pt-2',
  footer: 'flex items-center gap-2 p-4 pt-0',
};
