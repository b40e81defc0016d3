import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/**
 * The one look of a refusal or a warning next to a form or a list (issue 41, ADR 0019): a
 * paragraph with role="alert" in the semantic colours of src/index.css. Inline (`text-destructive`,
 * `text-warning-foreground`) under a field or a button; `box` for a page's or a section's message.
 * The text comes from the error catalogue (src/lib/errors) or a Lingui message, never the server.
 */
export function FormAlert({
  variant = 'error',
  box = false,
  className,
  ...props
}: ComponentProps<'p'> & { variant?: 'error' | 'warning'; box?: boolean }) {
  return <p role="alert" className={cn(box ? boxed[variant] : inline[variant], className)} {...props} />;
}

const inline = { error: 'text-destructive', warning: 'text-warning-foreground' } as const;
const boxed = {
  error: 'rounded-md bg-destructive-subtle p-3 text-destructive-subtle-foreground',
  warning: 'rounded-md bg-warning p-3 text-warning-foreground',
} as const;
