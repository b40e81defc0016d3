import { createFileRoute, notFound } from '@tanstack/react-router';
import { isStaff } from '@/lib/auth';
import { loadBackOfficeShell } from '@/components/layout/back-office';

/** The back office: staff only; everyone else sees the 404 page (RLS refuses them anyway). */
export const Route = createFileRoute('/{-$locale}/account/admin')({
  beforeLoad: async ({ context }) => {
    if (!isStaff(context.identity)) throw notFound();
    // The sidebar shell's chunk, so the back office renders in it from the first frame.
    await loadBackOfficeShell();
  },
});
