import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { Constants, type Enums, type Tables } from '@/lib/database.types';
import { check, checkList } from '@/lib/supabase-errors';
import { getSupabase } from '@/lib/auth';

export const settingsKeys = {
  all: ['admin', 'settings'] as const,
  fairs: () => [...settingsKeys.all, 'fair-periods'] as const,
  access: () => [...settingsKeys.all, 'access'] as const,
  paymentModes: () => [...settingsKeys.all, 'payment-modes'] as const,
  twoFactor: () => [...settingsKeys.all, 'two-factor'] as const,
};

export interface FairPeriod {
  id: string;
  name: string;
  name_en: string | null;
  starts_on: string;
  ends_on: string;
}

export const fairPeriodsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.fairs(),
    queryFn: async (): Promise<FairPeriod[]> => {
      const db = await getSupabase();
      return checkList(
        await db.from('fair_periods').select('id,name,name_en,starts_on,ends_on').order('starts_on', { ascending: false }).limit(500),
      );
    },
  });

export async function saveFairPeriod(id: string | null, row: Omit<FairPeriod, 'id'>): Promise<void> {
  const db = await getSupabase();
  if (!id) {
    check(await db.from('fair_periods').insert(row));
    return;
  }
  const updated = checkList(await db.from('fair_periods').update(row).eq('id', id).select('id'));
  if (!updated.length) throw Object.assign(new Error('not found'), { code: 'PGRST116' });
}

export async function deleteFairPeriod(id: string): Promise<void> {
  const db = await getSupabase();
  const deleted = checkList(await db.from('fair_periods').delete().eq('id', id).select('id'));
  if (!deleted.length) throw Object.assign(new Error('not found'), { code: 'PGRST116' });
}

export interface HarbourAccess {
  door_code: string;
  wifi_ssid: string;
  wifi_password: string;
  updated_at: string;
}

/** The one settings row (admins read and write it; others see it through harbour_access()). */
export const harbourAccessQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.access(),
    queryFn: async (): Promise<HarbourAccess | null> => {
      const db = await getSupabase();
      return check(await db.from('harbour_settings').select('door_code,wifi_ssid,wifi_password,updated_at').eq('id', 1).maybeSingle());
    },
  });

export async function saveHarbourAccess(row: Omit<HarbourAccess, 'updated_at'>): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('harbour_settings').update(row).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}

/** How each kind of order is paid (issue 20); the same settings row, admins read and write it. */
export type PaymentMode = Enums<'payment_mode'>;
export const paymentModes = Constants.public.Enums.payment_mode;

export const paymentModeColumns = ['payment_mode_day', 'payment_mode_overnight', 'payment_mode_fair', 'payment_mode_walk_in'] as const;
export type PaymentModes = Pick<Tables<'harbour_settings'>, (typeof paymentModeColumns)[number] | 'payment_hold_minutes'>;

export const paymentModesQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.paymentModes(),
    queryFn: async (): Promise<PaymentModes | null> => {
      const db = await getSupabase();
      return check(
        await db
          .from('harbour_settings')
          .select('payment_mode_day,payment_mode_overnight,payment_mode_fair,payment_mode_walk_in,payment_hold_minutes')
          .eq('id', 1)
          .maybeSingle(),
      );
    },
  });

export async function savePaymentModes(modes: PaymentModes): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('harbour_settings').update(modes).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}

/** Whether admins and harbour staff must sign in with a second factor (harbour_settings). */
export type TwoFactor = Pick<Tables<'harbour_settings'>, 'mfa_required_admin' | 'mfa_required_harbor'>;

export const twoFactorQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.twoFactor(),
    queryFn: async (): Promise<TwoFactor | null> => {
      const db = await getSupabase();
      return check(await db.from('harbour_settings').select('mfa_required_admin,mfa_required_harbor').eq('id', 1).maybeSingle());
    },
  });

/** Saves the requirements; the database refuses one that would take the saving admin's own rights (mfa_enrol_first). */
export async function saveTwoFactor(values: TwoFactor): Promise<void> {
  const db = await getSupabase();
  const updated = checkList(await db.from('harbour_settings').update(values).eq('id', 1).select('id'));
  if (!updated.length) throw Object.assign(new Error('forbidden'), { code: '42501' });
}

/** The seller data printed on new invoice documents (public.invoice_seller_settings; admins). */
export interface SellerSettings {
  name: string;
  street: string;
  postal_code: string;
  city: string;
  country: string;
  email: string;
  phone: string;
  vat_id: string;
  tax_number: string;
  iban: string;
  bic: string;
}

export const sellerSettingsQueryOptions = () =>
  queryOptions({
    queryKey: [...settingsKeys.all, 'seller'] as const,
    queryFn: async (): Promise<SellerSettings> => {
      const db = await getSupabase();
      return check(await db.rpc('invoice_seller_settings')) as unknown as SellerSettings;
    },
  });

/** Stores the seller data; the database checks every value (invoice_invalid_setting, hint = the field). */
export async function saveSellerSettings(values: SellerSettings): Promise<void> {
  const db = await getSupabase();
  const result = await db.rpc('save_invoice_seller_settings', { p_settings: { ...values } });
  if (result.error) throw Object.assign(new Error(result.error.message), { code: result.error.code, hint: result.error.hint });
}

/** Create (id null) or update a fair period (saveFairPeriod); refreshes the fair periods. */
export function useSaveFairPeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, row }: { id: string | null; row: Omit<FairPeriod, 'id'> }) => saveFairPeriod(id, row),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.fairs() }),
  });
}

/** Delete a fair period (deleteFairPeriod); refreshes the fair periods. */
export function useDeleteFairPeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteFairPeriod(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.fairs() }),
  });
}

/** Save the door code and wifi (saveHarbourAccess); refreshes them. */
export function useSaveHarbourAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (row: Omit<HarbourAccess, 'updated_at'>) => saveHarbourAccess(row),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.access() }),
  });
}

/** Save how each kind of order is paid (savePaymentModes); refreshes them. */
export function useSavePaymentModes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (modes: PaymentModes) => savePaymentModes(modes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.paymentModes() }),
  });
}

/** Save which roles must use a second factor (saveTwoFactor); refreshes the setting. */
export function useSaveTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: TwoFactor) => saveTwoFactor(values),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.twoFactor() }),
  });
}
