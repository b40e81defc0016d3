import { cn } from '@/lib/utils';
import { labelWith } from '@/components/ui/label-base';

export const Label = labelWith(cn);
