/** The long-term applications list's URL search params: tiny and free of feature code, since route options load with the first page. */
import { parseHide, parseOneOf, parsePage, parseSort, parseText } from '@/components/ui/data-table-search';

/** The columns the list sorts by (PostgREST orders the queue function's rows), which are the table's column ids. */
export const applicationSortColumns = ['position', 'created_at', 'last_name', 'email', 'place_name', 'desired_start', 'status'] as const;
export const applicationHideableColumns = ['created_at', 'email', 'boat', 'place_name', 'desired_start', 'status'] as const;
export const applicationStatuses = ['open', 'accepted', 'declined', 'withdrawn'] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number];

/** ?q=&status=&page=&sort=&hide= */
export interface ApplicationsSearch {
  q?: string;
  status?: ApplicationStatus;
  page?: number;
  /** `<column>.<asc|desc>`; absent: the waiting list's order (open ones by position, then the others by arrival). */
  sort?: string;
  hide?: string;
}

/** validateSearch of /account/admin/applications: unknown or malformed values are dropped, never an error. */
export function parseApplicationsSearch(search: Record<string, unknown>): ApplicationsSearch {
  return {
    q: parseText(search.q),
    status: parseOneOf(search.status, applicationStatuses),
    page: parsePage(search.page),
    sort: parseSort(search.sort, applicationSortColumns),
    hide: parseHide(search.hide, applicationHideableColumns),
  };
}
