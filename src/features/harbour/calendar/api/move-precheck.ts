import { queryOptions } from '@tanstack/react-query';
import { t } from '@lingui/core/macro';
import { getSupabase } from '@/lib/auth';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { staffErrorMessage } from '@/lib/errors/staff-messages';

/**
 * A berth's answer to a stay moved to it (public.move_precheck, the rule private.berth_verdict
 * that move_booking and reschedule_booking apply themselves): it fits, or why not.
 */
export type Verdict =
  'fits' | 'too_small' | 'too_shallow' | 'day_stay_not_allowed' | 'day_guests_only' | 'long_term' | 'blocked' | 'occupied';
const VERDICTS: readonly Verdict[] = [
  'fits',
  'too_small',
  'too_shallow',
  'day_stay_not_allowed',
  'day_guests_only',
  'long_term',
  'blocked',
  'occupied',
];

/** Berth id -> verdict, for one stay and one period. */
export type Verdicts = ReadonlyMap<string, Verdict>;

/**
 * Every berth's verdict for an order over its own period (arrival null) or over new dates (as
 * reschedule_booking would make them; dates it refuses come back as its error). Realtime
 * changes of the harbour invalidate it with the calendar (harbourKeys.all).
 */
export const movePrecheckQueryOptions = (orderId: string, arrival: string | null, departure: string | null) =>
  queryOptions({
    queryKey: [...harbourKeys.all, 'move-precheck', orderId, arrival, departure] as const,
    queryFn: async (): Promise<Verdicts> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase.rpc('move_precheck', {
        p_order_id: orderId,
        p_arrival: arrival ?? undefined,
        p_departure: departure ?? undefined,
      });
      if (error) throw error;
      return new Map(data.map((r) => [r.place_id, VERDICTS.includes(r.verdict as Verdict) ? (r.verdict as Verdict) : 'occupied']));
    },
    // A drag asks once when it starts and once per day it is shifted by; a drop asks again only after this.
    staleTime: 15_000,
    retry: false,
  });

/** The few words a berth row shows while a stay is dragged over the plan (the reason it cannot take it). */
export function verdictShort(v: Verdict): string {
  switch (v) {
    case 'fits':
      return t`passt`;
    case 'too_small':
      return t`zu klein`;
    case 'too_shallow':
      return t`zu flach`;
    case 'day_stay_not_allowed':
      return t`keine Tagesgäste`;
    case 'day_guests_only':
      return t`nur Tagesgäste`;
    case 'long_term':
      return t`Langzeitlieger`;
    case 'blocked':
      return t`gesperrt`;
    case 'occupied':
      return t`belegt`;
  }
}

/** Why a berth cannot take the stay, in a sentence: the move's own refusal where it has one. */
export function verdictMessage(v: Verdict): string {
  switch (v) {
    case 'too_small':
      return staffErrorMessage({ message: 'boat_does_not_fit' });
    case 'too_shallow':
      return staffErrorMessage({ message: 'berth_too_shallow' });
    case 'day_stay_not_allowed':
      return staffErrorMessage({ message: 'day_stay_not_allowed' });
    case 'day_guests_only':
      return staffErrorMessage({ message: 'day_guests_only' });
    case 'long_term':
      return t`Der Liegeplatz ist in diesem Zeitraum an einen Langzeitlieger vergeben.`;
    case 'blocked':
      return t`Der Liegeplatz ist in diesem Zeitraum gesperrt.`;
    case 'occupied':
    case 'fits':
      return staffErrorMessage({ message: 'berth_no_longer_available' });
  }
}
