import { createFileRoute, notFound } from '@tanstack/react-router';
import { isStaff } from '@/lib/auth';

/** The back office: staff only; everyone else sees the 404 page (RLS refuses them anyway). */
export const Route = createFileRoute('/{-$locale}/account/admin')({
  beforeLoad: ({ context }) => {
    if (!isStaff(context.identity)) throw notFound();
  },
});
