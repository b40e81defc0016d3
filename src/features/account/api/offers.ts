import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { invokeFunction } from '@/lib/edge-functions';
import type { Tables } from '@/lib/database.types';

/** A price line of an offer or contract (private.long_term_season_lines, seam 1 of issue 42). */
export interface SeasonLine {
  code: string;
  description: string;
  description_en: string;
  quantity: number;
  unit: string;
  unit_price_cents: number;
  vat_rate: number;
  gross_cents: number;
}

export type OfferStatus = 'open' | 'accepted' | 'declined' | 'lapsed' | 'withdrawn';
export type PaymentMethod = 'sepa_debit' | 'bank_transfer';
export type PaymentPlan = 1 | 2 | 4;

/** An offer as its applicant reads it (RLS: own by account or verified e-mail), with berth and season. */
export type MyOffer = Pick<Tables<'berth_offers'>, 'id' | 'deadline' | 'gross_cents' | 'sent_at' | 'answered_at'> & {
  status: OfferStatus;
  lines: SeasonLine[];
  place: Pick<Tables<'places'>, 'name' | 'pier'> | null;
  season: Pick<Tables<'seasons'>, 'name' | 'starts_on' | 'ends_on'> | null;
};

export type MyContract = Pick<
  Tables<'contracts'>,
  | 'id'
  | 'contract_number'
  | 'locale'
  | 'starts_on'
  | 'ends_on'
  | 'gross_cents'
  | 'payment_plan'
  | 'payment_method'
  | 'terms_version'
  | 'contract_text'
  | 'contract_sha256'
  | 'accepted_at'
  | 'notice_deadline'
  | 'status'
> & {
  place: Pick<Tables<'places'>, 'name'> | null;
  season: Pick<Tables<'seasons'>, 'name'> | null;
  /** The accepted terms' version: whether the contract renews unless noticed. */
  terms: Pick<Tables<'contract_terms'>, 'renews_automatically'> | null;
};

export const offerKeys = {
  mine: ['long-term', 'offers'] as const,
  contracts: ['long-term', 'contracts'] as const,
  text: (id: string, plan: number, method: string) => ['long-term', 'offer-contract', id, plan, method] as const,
};

export const myOffersQueryOptions = () =>
  queryOptions({
    queryKey: offerKeys.mine,
    queryFn: async (): Promise<MyOffer[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('berth_offers')
        .select(
          'id, status, deadline, gross_cents, sent_at, answered_at, lines, place:places(name, pier), season:seasons(name, starts_on, ends_on)',
        )
        .in('status', ['open', 'lapsed'])
        .order('sent_at', { ascending: false });
      if (error) throw error;
      return data as unknown as MyOffer[];
    },
  });

export const myContractsQueryOptions = () =>
  queryOptions({
    queryKey: offerKeys.contracts,
    queryFn: async (): Promise<MyContract[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('contracts')
        .select(
          'id, contract_number, locale, starts_on, ends_on, gross_cents, payment_plan, payment_method, terms_version, contract_text, contract_sha256, accepted_at, notice_deadline, status, place:places(name), season:seasons(name), terms:contract_terms(renews_automatically)',
        )
        .order('accepted_at', { ascending: false });
      if (error) throw error;
      return data as unknown as MyContract[];
    },
  });

/**
 * A contract's PDF/A from the contract-pdf edge function (supabase/functions/contract-pdf): it
 * reads the contract with the visitor's session, so RLS decides (the holder, or staff); the PDF
 * is in the contract's language. Throws FunctionCallError (e.g. not_found).
 */
export async function fetchContractPdf(id: string): Promise<Blob> {
  const data = await invokeFunction<Blob>('contract-pdf', { contract_id: id });
  if (!(data instanceof Blob)) throw new Error('contract-pdf answered no PDF');
  return data;
}

/** The PDF's file name as the function gives it: "Vertrag-LV-2027-0001.pdf" / "Contract-LV-2027-0001.pdf". */
export const contractPdfFileName = (c: Pick<Tables<'contracts'>, 'contract_number' | 'locale'>) =>
  `${c.locale === 'en' ? 'Contract' : 'Vertrag'}-${c.contract_number}.pdf`;

export interface ContractText {
  contract_text: string;
  contract_sha256: string;
  terms_version: number;
  terms_published_at: string;
}

/** The contract text of an offer for a payment plan and method, as the database renders it. */
export const offerContractQueryOptions = (id: string, plan: PaymentPlan, method: PaymentMethod) =>
  queryOptions({
    queryKey: offerKeys.text(id, plan, method),
    queryFn: async (): Promise<ContractText> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('offer_contract', { p_offer_id: id, p_payment_plan: plan, p_payment_method: method });
      if (error) throw error;
      return data[0];
    },
  });

/** SHA-256 of the text shown, hex (what accept_offer compares with the text it renders). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface AcceptValues {
  offerId: string;
  plan: PaymentPlan;
  method: PaymentMethod;
  /** The text the applicant read. */
  text: string;
}

export function useAcceptOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: AcceptValues) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('accept_offer', {
        p_offer_id: v.offerId,
        p_payment_plan: v.plan,
        p_payment_method: v.method,
        p_contract_sha256: await sha256Hex(v.text),
      });
      if (error) throw error;
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['long-term'] }),
  });
}

export function useDeclineOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { offerId: string; reason?: string }) => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('decline_offer', { p_offer_id: v.offerId, p_reason: v.reason || undefined });
      if (error) throw error;
      return data;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['long-term'] }),
  });
}
