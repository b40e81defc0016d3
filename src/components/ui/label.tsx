import { cn } from '@/lib/utils';
import { labelWith } from './label-base';

export const Label = labelWith(cn);
