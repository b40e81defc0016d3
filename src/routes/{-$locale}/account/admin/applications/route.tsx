import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';

/** Admins only: applications hold personal data only admins read (RLS); harbour staff get the 404 page. */
export const Route = createFileRoute('/{-$locale}/account/admin/applications')({
  beforeLoad: requireAdmin,
});
