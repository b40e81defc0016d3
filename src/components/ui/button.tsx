import { cn } from '@/lib/utils';
import { buttonVariants } from '@/components/ui/button-variants';
import { buttonWith } from '@/components/ui/button-base';

export { buttonVariants };

export const Button = buttonWith(cn);
