import { createFileRoute } from '@tanstack/react-router';
import { LongTermFeesPage } from '@/features/admin/long-term-fees';
import { OverdueFeesSection } from '@/features/admin/long-term/components/overdue-fees';

/**
 * The long-term holders' seasonal fees, for all staff (transfers are recorded at the office): every
 * instalment with failed debits and overdue fees first, then the overdue ones with their reminders
 * and whether the door code is withheld.
 */
export const Route = createFileRoute('/{-$locale}/account/admin/fees')({
  component: function AdminFees() {
    return (
      <>
        <LongTermFeesPage />
        <OverdueFeesSection />
      </>
    );
  },
});
