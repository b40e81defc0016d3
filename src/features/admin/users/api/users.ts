import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { check, checkList } from '@/lib/supabase-errors';
import { isUuid } from '@/lib/ids';
import type { UsersSearch } from '@/features/admin/users/api/users-search';

export const USERS_PAGE_SIZE = 20;

export const adminUserKeys = {
  all: ['admin', 'users'] as const,
  list: ({ hide: _hide, ...search }: UsersSearch) => [...adminUserKeys.all, 'list', search] as const,
  item: (id: string) => [...adminUserKeys.all, 'item', id] as const,
};

export interface UserListRow {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  admin: boolean;
  harbor: boolean;
  user: boolean;
  active: boolean;
}

/** A page (1-based) of admin_list_users (filtered and sorted in Postgres), with the total number of matches. */
export const adminUsersQueryOptions = (search: UsersSearch) =>
  queryOptions({
    queryKey: adminUserKeys.list(search),
    queryFn: async (): Promise<{ rows: UserListRow[]; total: number }> => {
      const db = await getSupabase();
      const [sort, direction] = search.sort ? search.sort.split('.') : ['name', 'asc'];
      const rows = checkList(
        await db.rpc('admin_list_users', {
          p_search: search.q,
          p_limit: USERS_PAGE_SIZE,
          p_offset: ((search.page ?? 1) - 1) * USERS_PAGE_SIZE,
          p_sort: sort,
          p_desc: direction === 'desc',
          p_role: search.role,
          p_active: search.state ? search.state === 'active' : undefined,
        }),
      );
      return { rows: rows as UserListRow[], total: rows[0]?.total ?? 0 };
    },
    placeholderData: keepPreviousData,
  });

export interface AdminUser {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  company: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  active: boolean;
  roles: { admin: boolean; harbor: boolean; user: boolean };
}

/** One account: its profile and its role record (admins read both; RLS decides). */
export const adminUserQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminUserKeys.item(id),
    queryFn: async (): Promise<AdminUser | null> => {
      if (!isUuid(id)) return null;
      const db = await getSupabase();
      const [profile, roles] = await Promise.all([
        db
          .from('profiles')
          .select('id,email,first_name,last_name,phone,company,street,postal_code,city,country,active')
          .eq('id', id)
          .maybeSingle(),
        db.from('user_roles').select('admin,harbor,user').eq('user_id', id).maybeSingle(),
      ]);
      const p = check(profile);
      const r = check(roles);
      if (!p) return null;
      return { ...p, roles: { admin: !!r?.admin, harbor: !!r?.harbor, user: !!r?.user } };
    },
  });

export interface SaveUserInput {
  firstName: string;
  lastName: string;
  phone: string;
  company: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  admin: boolean;
  harbor: boolean;
  user: boolean;
  active: boolean;
}

/** admin_save_user: person fields, role flags and active in one transaction. */
export async function saveUser(id: string, v: SaveUserInput): Promise<void> {
  const db = await getSupabase();
  check(
    await db.rpc('admin_save_user', {
      p_user_id: id,
      p_first_name: v.firstName,
      p_last_name: v.lastName,
      p_phone: v.phone,
      p_company: v.company,
      p_street: v.street,
      p_postal_code: v.postalCode,
      p_city: v.city,
      p_country: v.country,
      p_admin: v.admin,
      p_harbor: v.harbor,
      p_user: v.user,
      p_active: v.active,
    }),
  );
}

export interface MfaStatus {
  factorCount: number;
  verified: boolean;
  required: boolean;
}

/** A person's second factor (issue 26): how many, one verified, required by their roles. */
export const adminMfaStatusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...adminUserKeys.item(id), 'mfa'] as const,
    queryFn: async (): Promise<MfaStatus> => {
      const db = await getSupabase();
      const rows = checkList(await db.rpc('admin_mfa_status', { p_user_id: id }));
      const row = rows[0];
      return { factorCount: row?.factor_count ?? 0, verified: row?.verified ?? false, required: row?.required ?? false };
    },
  });

/** Removes the person's second factor (audited; the person is told by e-mail). */
export async function resetMfa(id: string): Promise<number> {
  const db = await getSupabase();
  return check(await db.rpc('admin_reset_mfa', { p_user_id: id })) ?? 0;
}

/** Save a person's fields, roles and active flag (saveUser); refreshes the admin's user queries, and the identity when it is one's own account. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id: string; values: SaveUserInput; self: boolean }) => saveUser(id, values),
    onSuccess: async (_data, { self }) => {
      await queryClient.invalidateQueries({ queryKey: adminUserKeys.all });
      if (self) await queryClient.invalidateQueries({ queryKey: ['identity'] });
    },
  });
}

/** Reset a person's second factor (admin_reset_mfa); refreshes that person's queries. */
export function useResetMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => resetMfa(userId),
    onSuccess: (_data, userId) => queryClient.invalidateQueries({ queryKey: adminUserKeys.item(userId) }),
  });
}
