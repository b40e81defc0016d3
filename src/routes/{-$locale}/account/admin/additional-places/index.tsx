import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { ColumnsListPage } from '@/features/admin/additional-places/components/columns-list-page';

/** Electricity and water columns (admins only). */
export const Route = createFileRoute('/{-$locale}/account/admin/additional-places/')({
  beforeLoad: requireAdmin,
  component: ColumnsListPage,
});
