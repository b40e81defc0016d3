/** The user list's URL search params: tiny and free of feature code, since route options load with the first page. */
import { parseHide, parseOneOf, parsePage, parseSort, parseText } from '@/components/ui/data-table-search';

/** The columns admin_list_users can sort by (p_sort), which are the table's column ids. */
export const userSortColumns = ['email', 'last_name', 'first_name', 'active'] as const;
export const userHideableColumns = ['last_name', 'first_name', 'roles', 'active'] as const;
export const userRoles = ['admin', 'harbor', 'user'] as const;
export type UserRole = (typeof userRoles)[number];
export const userStates = ['active', 'inactive'] as const;
export type UserState = (typeof userStates)[number];

/** ?q=&role=&state=&page=&sort=&hide= */
export interface UsersSearch {
  q?: string;
  role?: UserRole;
  state?: UserState;
  page?: number;
  /** `<column>.<asc|desc>`; absent: by name (last, first, e-mail). */
  sort?: string;
  hide?: string;
}

/** validateSearch of /account/admin/users: unknown or malformed values are dropped, never an error. */
export function parseUsersSearch(search: Record<string, unknown>): UsersSearch {
  return {
    q: parseText(search.q),
    role: parseOneOf(search.role, userRoles),
    state: parseOneOf(search.state, userStates),
    page: parsePage(search.page),
    sort: parseSort(search.sort, userSortColumns),
    hide: parseHide(search.hide, userHideableColumns),
  };
}
