import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';

/** Admins only: harbour staff get the 404 page here (RLS refuses their writes anyway). */
export const Route = createFileRoute('/{-$locale}/account/admin/extras')({
  beforeLoad: requireAdmin,
});
