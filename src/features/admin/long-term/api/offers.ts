import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database, Tables } from '@/lib/database.types';

export type Candidate = Database['public']['Functions']['offer_candidates']['Returns'][number];
export type FreeBerth = Database['public']['Functions']['free_berths_for_season']['Returns'][number];

export type AdminOffer = Pick<
  Tables<'berth_offers'>,
  'id' | 'email' | 'deadline' | 'gross_cents' | 'sent_at' | 'answered_at' | 'next_offer_id'
> & {
  status: 'open' | 'accepted' | 'declined' | 'lapsed' | 'withdrawn';
  decline_reason: string | null;
  kept_place: boolean | null;
  place: Pick<Tables<'places'>, 'name'> | null;
  season: Pick<Tables<'seasons'>, 'name' | 'name_en'> | null;
  application: Pick<Tables<'long_term_applications'>, 'first_name' | 'last_name'> | null;
};

export type AdminContract = Pick<
  Tables<'contracts'>,
  | 'id'
  | 'contract_number'
  | 'email'
  | 'starts_on'
  | 'ends_on'
  | 'gross_cents'
  | 'payment_plan'
  | 'payment_method'
  | 'accepted_at'
  | 'terms_version'
  | 'locale'
> & {
  status: 'active' | 'noticed' | 'ended';
  holder: { first_name?: string; last_name?: string };
  place: Pick<Tables<'places'>, 'name'> | null;
  season: Pick<Tables<'seasons'>, 'name' | 'name_en'> | null;
  /** What the holder owes on the contract now (public.contract_balances: instalments' gross minus the ledger's net payments; negative = overpaid). */
  balance_cents: number;
};

export const adminOfferKeys = {
  all: ['admin-offers'] as const,
  seasons: ['admin-offers', 'seasons'] as const,
  free: (season: string) => ['admin-offers', 'free', season] as const,
  candidates: (place: string, season: string) => ['admin-offers', 'candidates', place, season] as const,
  offers: ['admin-offers', 'offers'] as const,
  contracts: ['admin-offers', 'contracts'] as const,
};

export const seasonsForOffersQueryOptions = () =>
  queryOptions({
    queryKey: adminOfferKeys.seasons,
    queryFn: async () => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.from('seasons').select('id, name, name_en, kind, starts_on, ends_on').order('starts_on');
      if (error) throw error;
      return data;
    },
  });

export const freeBerthsQueryOptions = (season: string) =>
  queryOptions({
    queryKey: adminOfferKeys.free(season),
    queryFn: async (): Promise<FreeBerth[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('free_berths_for_season', { p_season_id: season });
      if (error) throw error;
      return data;
    },
  });

export const candidatesQueryOptions = (place: string, season: string) =>
  queryOptions({
    queryKey: adminOfferKeys.candidates(place, season),
    queryFn: async (): Promise<Candidate[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('offer_candidates', { p_place_id: place, p_season_id: season });
      if (error) throw error;
      return data;
    },
  });

export const adminOffersQueryOptions = () =>
  queryOptions({
    queryKey: adminOfferKeys.offers,
    queryFn: async (): Promise<AdminOffer[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('berth_offers')
        .select(
          'id, email, status, deadline, gross_cents, sent_at, answered_at, next_offer_id, decline_reason, kept_place, place:places(name), season:seasons(name, name_en), application:long_term_applications(first_name, last_name)',
        )
        .order('sent_at', { ascending: false })
        .limit(200);
      if (error) throw error;
      return data as unknown as AdminOffer[];
    },
  });

export const adminContractsQueryOptions = () =>
  queryOptions({
    queryKey: adminOfferKeys.contracts,
    queryFn: async (): Promise<AdminContract[]> => {
      const supabase = await getSupabase();
      const [contracts, balances] = await Promise.all([
        supabase
          .from('contracts')
          .select(
            'id, contract_number, email, status, starts_on, ends_on, gross_cents, payment_plan, payment_method, accepted_at, terms_version, locale, holder, place:places(name), season:seasons(name, name_en)',
          )
          .order('accepted_at', { ascending: false }),
        supabase.rpc('contract_balances'),
      ]);
      if (contracts.error) throw contracts.error;
      if (balances.error) throw balances.error;
      // bigint columns may arrive as strings: the balance is a number of cents.
      const balance = new Map(balances.data.map((b) => [b.contract_id, Number(b.balance_cents)]));
      return (contracts.data as unknown as Omit<AdminContract, 'balance_cents'>[]).map((c) => ({
        ...c,
        balance_cents: balance.get(c.id) ?? 0,
      }));
    },
  });

function useOfferMutation<V>(call: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminOfferKeys.all }),
  });
}

export function useSendOffer() {
  return useOfferMutation(async (v: { applicationId: string; placeId: string; seasonId: string; deadline?: string }) => {
    const supabase = await getSupabase();
    const { data, error } = await supabase.rpc('send_offer', {
      p_application_id: v.applicationId,
      p_place_id: v.placeId,
      p_season_id: v.seasonId,
      p_deadline: v.deadline || undefined,
    });
    if (error) throw error;
    return data;
  });
}

export function useOfferNext() {
  return useOfferMutation(async (offerId: string) => {
    const supabase = await getSupabase();
    const { data, error } = await supabase.rpc('offer_next_applicant', { p_offer_id: offerId });
    if (error) throw error;
    return data;
  });
}

export function useWithdrawOffer() {
  return useOfferMutation(async (offerId: string) => {
    const supabase = await getSupabase();
    const { data, error } = await supabase.rpc('withdraw_offer', { p_offer_id: offerId });
    if (error) throw error;
    return data;
  });
}

/** The contract terms in force (public.contract_terms, highest version). */
export type ContractTermsRow = Pick<Tables<'contract_terms'>, 'version' | 'body_de' | 'body_en' | 'published_at' | 'renews_automatically'>;

export const currentTermsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin-offers', 'terms'] as const,
    queryFn: async (): Promise<ContractTermsRow | null> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('contract_terms')
        .select('version, body_de, body_en, published_at, renews_automatically')
        .order('version', { ascending: false })
        .limit(1);
      if (error) throw error;
      return data[0] ?? null;
    },
  });
