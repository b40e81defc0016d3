import { queryOptions } from '@tanstack/react-query';
import { env } from '@/lib/env';
import { isMissingRelation } from '@/lib/supabase-errors';

/** What harbour_intro() answers (supabase/schemas/45_harbour_access.sql); times as HH:MI, Europe/Berlin. */
export interface HarbourIntro {
  address_street: string;
  address_postal_code: string;
  address_city: string;
  latitude: number | null;
  longitude: number | null;
  office_weekdays_opens: string | null;
  office_weekdays_closes: string | null;
  office_weekend_opens: string | null;
  office_weekend_closes: string | null;
  office_hours_note: string;
  office_hours_note_en: string;
  rhine_km: number | null;
  vhf_channel: number | null;
  water_approach: string;
  water_approach_en: string;
  /** The harbour office's phone (international form) and e-mail. */
  phone: string;
  email: string;
}

/**
 * The harbour's introduction as an admin set it (public). A plain GET of the RPC with the
 * publishable key, so the start page does not load supabase-js. Null while the function does
 * not exist.
 */
async function fetchHarbourIntro(): Promise<HarbourIntro | null> {
  const response = await fetch(`${env.supabaseUrl}/rest/v1/rpc/harbour_intro`, {
    headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as HarbourIntro | { code?: string; message?: string } | null;
  if (!response.ok) {
    if (isMissingRelation(body) || (body as { code?: string } | null)?.code === 'PGRST202') return null;
    throw new Error((body as { message?: string } | null)?.message ?? `harbour_intro: HTTP ${response.status}`);
  }
  return body as HarbourIntro;
}

export const harbourIntroKeys = { all: ['harbour-intro'] as const };

export const harbourIntroQueryOptions = queryOptions({
  queryKey: harbourIntroKeys.all,
  queryFn: fetchHarbourIntro,
  staleTime: 5 * 60_000,
});

/** A phone number as a tel: link (digits and the leading +). */
export const telHref = (phone: string) => `tel:${phone.replace(/\(0\)/g, '').replace(/[^\d+]/g, '')}`;

/** The position on OpenStreetMap (a marker at the harbour). */
export function openStreetMapUrl(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
}
