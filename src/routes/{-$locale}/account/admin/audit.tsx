import { createFileRoute } from '@tanstack/react-router';
import { requireAdmin } from '@/lib/auth';
import { parseAuditSearch } from '@/features/admin/audit/api/audit-search';
import { AuditPage } from '@/features/admin/audit/components/audit-page';

/**
 * The audit trail (admins only: harbour staff get the 404 page, as for DATEV, rather than a
 * request the database refuses with 403, which the browser logs as an error; the database
 * refuses them too, admin_audit_log: 42501, and the page says so if it happens). Filters and
 * page live in the URL.
 */
export const Route = createFileRoute('/{-$locale}/account/admin/audit')({
  beforeLoad: requireAdmin,
  validateSearch: parseAuditSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    // Imported here, not at the top, so the audit code stays out of the first download.
    const { auditQueryOptions } = await import('@/features/admin/audit/api/audit');
    await context.queryClient.prefetchQuery(auditQueryOptions(deps));
  },
  component: function AdminAudit() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <AuditPage search={search} onSearch={(next) => void navigate({ search: (previous) => next(previous) })} />;
  },
});
