import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Database, Json } from '@/lib/database.types';
import { getSupabase } from '@/lib/auth';
import { checkList, type ApiError } from '@/lib/supabase-errors';
import type { AuditSearch } from '@/features/admin/audit/api/audit-search';

export {
  auditTables,
  auditActorKinds,
  parseAuditSearch,
  type AuditSearch,
  type AuditActorKind,
} from '@/features/admin/audit/api/audit-search';

export const AUDIT_PAGE_SIZE = 25;

export const auditKeys = {
  all: ['admin', 'audit'] as const,
  list: (search: AuditSearch) => [...auditKeys.all, 'list', search] as const,
};

type AuditRow = Database['public']['Functions']['admin_audit_log']['Returns'][number];

/** RETURNS TABLE columns are typed not-null; these are null where the row has none. */
type AuditOverride = {
  actor: string | null;
  actor_name: string | null;
  actor_email: string | null;
  old_values: Record<string, Json> | null;
  new_values: Record<string, Json> | null;
  redacted: string[] | null;
  action: 'insert' | 'update' | 'delete';
  actor_role: 'authenticated' | 'guest' | 'anon' | 'service_role' | 'system';
};

/** One entry of the trail (without the window count). */
export type AuditEntry = Omit<AuditRow, 'total' | keyof AuditOverride> & AuditOverride;

/** One page of admin_audit_log (newest first, filtered in the database) and the total. */
export const auditQueryOptions = (search: AuditSearch) =>
  queryOptions({
    queryKey: auditKeys.list(search),
    queryFn: async (): Promise<{ rows: AuditEntry[]; total: number }> => {
      const db = await getSupabase();
      const page = search.page ?? 1;
      // An inverted range is swapped rather than refused: the URL may have been typed by hand.
      const [from, to] = search.from && search.to && search.to < search.from ? [search.to, search.from] : [search.from, search.to];
      const args = { p_table: search.table, p_actor: search.actor, p_actor_role: search.kind, p_from: from, p_to: to };
      const rows = checkList(
        await db
          .rpc('admin_audit_log', { ...args, p_limit: AUDIT_PAGE_SIZE, p_offset: (page - 1) * AUDIT_PAGE_SIZE })
          .overrideTypes<AuditOverride[]>(),
      );
      // total is bigint: a JSON number from PostgREST, made sure of here.
      let total = rows[0] ? Number(rows[0].total) : 0;
      if (rows.length === 0 && page > 1) {
        // Past the last page: ask for the count alone.
        const head = checkList(await db.rpc('admin_audit_log', { ...args, p_limit: 1, p_offset: 0 }));
        total = head[0] ? Number(head[0].total) : 0;
      }
      return { rows, total };
    },
    placeholderData: keepPreviousData,
    retry: (count, error) => (error as ApiError).code !== '42501' && count < 2,
  });

/** True when the database refused the caller (a harbour staff member who is not an admin). */
export const isAuditRefused = (error: unknown) => (error as ApiError | null)?.code === '42501';
