import { cn } from '@/lib/utils';
import { buttonVariants } from './button-variants';
import { buttonWith } from './button-base';

export { buttonVariants };

export const Button = buttonWith(cn);
