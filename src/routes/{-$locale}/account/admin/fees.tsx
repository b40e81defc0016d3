import { createFileRoute } from '@tanstack/react-router';
import { LongTermFeesPage } from '@/features/admin/long-term-fees';

/** The long-term holders' seasonal fees (all staff: transfers are recorded at the office; failed debits and overdue fees first). */
export const Route = createFileRoute('/{-$locale}/account/admin/fees')({
  component: LongTermFeesPage,
});
