import { clsx } from 'clsx';
import { buttonWith } from '@/components/ui/button-base';
import { formWith } from '@/components/ui/form-base';
import { inputWith } from '@/components/ui/input-base';
import { labelWith } from '@/components/ui/label-base';

/*
 * The ui parts of the booking flow's first screen (step 1 and the flow around it), joining their
 * classes with clsx instead of tailwind-merge's `cn`: the same components as components/ui, and,
 * as no class given to them conflicts with theirs, the same classes (tests/e2e/budget.spec.ts
 * checks every element of step 1, before and after a failed submit). tailwind-merge (~8 KB gzip)
 * stays out of /start/booking's first download.
 */
export { Form, FormControl, FormField } from '@/components/ui/form-base';
export const Label = labelWith(clsx);
export const Input = inputWith(clsx);
export const Button = buttonWith(clsx);
export const { FormItem, FormLabel, FormDescription, FormMessage } = formWith(clsx, Label);
