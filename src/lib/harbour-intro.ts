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
 * A public database function read with a plain GET and the publishable key, so the start page
 * does not load supabase-js (harbour_intro, harbour_status). Null while the function does not
 * exist.
 */
export async function fetchPublicRpc<T>(name: string): Promise<T | null> {
  const response = await fetch(`${env.supabaseUrl}/rest/v1/rpc/${name}`, {
    headers: { apikey: env.supabaseKey, authorization: `Bearer ${env.supabaseKey}`, accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as T | { code?: string; message?: string } | null;
  if (!response.ok) {
    if (isMissingRelation(body)) return null;
    throw new Error((body as { message?: string } | null)?.message ?? `${name}: HTTP ${response.status}`);
  }
  return body as T;
}

/** The harbour's introduction as an admin set it (public). */
const fetchHarbourIntro = () => fetchPublicRpc<HarbourIntro>('harbour_intro');

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
