import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { check } from '@/lib/supabase-errors';
import type { Application } from '@/features/admin/long-term/api/long-term';
import type { ApplicationsSearch } from '@/features/admin/long-term/api/applications-search';

export const APPLICATIONS_PAGE_SIZE = 25;

export const applicationListKeys = {
  all: ['admin', 'applications'] as const,
  list: ({ hide: _hide, ...search }: ApplicationsSearch) => [...applicationListKeys.all, 'list', search] as const,
};

/** A text for PostgREST's or=(…ilike…): the characters that end a pattern or a condition are dropped. */
const term = (q: string) => q.replace(/[%,()*\\.:"]/g, ' ').trim();

/**
 * A page (1-based) of all long-term applications with the total of matches. The list grows
 * year by year (answered ones stay), so Postgres filters, sorts and pages it: PostgREST applies
 * them to the rows of long_term_applications_queue() (admins only), count=exact gives the total.
 * Every order ends with the queue number's order (created_at) and the id, so pages never overlap.
 */
export const applicationsListQueryOptions = (search: ApplicationsSearch) =>
  queryOptions({
    queryKey: applicationListKeys.list(search),
    queryFn: async (): Promise<{ rows: Application[]; total: number }> => {
      const supabase = await getSupabase();
      const page = search.page ?? 1;
      const [sort, direction] = search.sort ? search.sort.split('.') : ['position', 'asc'];
      const ascending = direction !== 'desc';
      let query = supabase.rpc('long_term_applications_queue', undefined, { count: 'exact' }).select('*');
      if (search.status) query = query.eq('status', search.status);
      const q = search.q ? term(search.q) : '';
      if (q) query = query.or(`email.ilike.*${q}*,last_name.ilike.*${q}*,first_name.ilike.*${q}*,place_name.ilike.*${q}*`);
      if (sort === 'position') query = query.order('waiting_position', { ascending, nullsFirst: !ascending });
      else if (sort === 'last_name') query = query.order('last_name', { ascending }).order('first_name', { ascending });
      else query = query.order(sort!, { ascending, nullsFirst: false });
      query = query
        .order('created_at')
        .order('id')
        .range((page - 1) * APPLICATIONS_PAGE_SIZE, page * APPLICATIONS_PAGE_SIZE - 1);
      const result = await query;
      // A page past the end (an old link): PostgREST answers 416; the table shows no rows.
      if (result.error?.code === 'PGRST103') return { rows: [], total: 0 };
      const rows = check(result) as unknown as Application[];
      return { rows: rows ?? [], total: result.count ?? rows?.length ?? 0 };
    },
    placeholderData: keepPreviousData,
  });
