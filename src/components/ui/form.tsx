import { cn } from '@/lib/utils';
import { formWith } from './form-base';
import { Label } from './label';

/** shadcn's form parts over react-hook-form (form-base.tsx), joining classes with `cn`. */
export { Form, FormControl, FormField } from './form-base';
export const { FormItem, FormLabel, FormDescription, FormMessage } = formWith(cn, Label);
