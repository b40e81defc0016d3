import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names and lets later Tailwind classes win over earlier ones (shadcn's cn).
 * The shell (src/components/layout, page.tsx, ui/button-variants.ts) and the start page join
 * with clsx instead: tailwind-merge (~9 KB gzip) stays out of the first download of /start.
 */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}
