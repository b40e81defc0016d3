import { cn } from '@/lib/utils';
import { formWith } from '@/components/ui/form-base';
import { Label } from '@/components/ui/label';

/** shadcn's form parts over react-hook-form (form-base.tsx), joining classes with `cn`. */
export { Form, FormControl, FormField } from '@/components/ui/form-base';
export const { FormItem, FormLabel, FormDescription, FormMessage } = formWith(cn, Label);
