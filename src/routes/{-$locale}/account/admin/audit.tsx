import { createFileRoute } from '@tanstack/react-router';
import { parseAuditSearch } from '@/features/admin/audit/api/audit-search';
import { AuditPage } from '@/features/admin/audit/components/audit-page';

/**
 * The audit trail (admins). Staff reach the page (the admin layout answers everyone else with
 * 404), but the database refuses them (admin_audit_log: 42501) and the page says so.
 * Filters and page live in the URL.
 */
export const Route = createFileRoute('/{-$locale}/account/admin/audit')({
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
