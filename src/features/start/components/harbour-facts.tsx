import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { harbour } from '@/lib/harbour';
import { harbourIntroQueryOptions } from '../api/harbour-intro';

/** The harbour's address and office hours as the contact, door-code and legal pages show them. */
export interface HarbourFacts {
  street: string;
  postalCode: string;
  city: string;
  /** "08:00–18:00" or null (closed). */
  weekdays: string | null;
  weekend: string | null;
  /** The admin's note on the office hours in the page's language ('' when none). */
  note: string;
}

const span = (opens: string | null, closes: string | null) => (opens && closes ? `${opens}–${closes}` : null);

/**
 * The address and office hours an admin set (harbour_intro(), as on the start page); null while
 * it loads. Only when the API cannot answer (offline, an old database) the built-in values of
 * src/lib/harbour.ts stand in, so the imprint and contact page never lack an address.
 */
export function useHarbourFacts(): HarbourFacts | null {
  const { i18n } = useLingui();
  const intro = useQuery(harbourIntroQueryOptions);
  if (intro.isPending) return null;
  const data = intro.data;
  if (intro.isError || !data) {
    return { street: harbour.street, postalCode: harbour.postalCode, city: harbour.city, weekdays: harbour.hours.weekdays, weekend: harbour.hours.weekend, note: '' };
  }
  return {
    street: data.address_street,
    postalCode: data.address_postal_code,
    city: data.address_city,
    weekdays: span(data.office_weekdays_opens, data.office_weekdays_closes),
    weekend: span(data.office_weekend_opens, data.office_weekend_closes),
    note: (i18n.locale === 'en' && data.office_hours_note_en) || data.office_hours_note,
  };
}

/** "08:00–18:00 Uhr" or "geschlossen". */
export function OfficeSpan({ value }: { value: string | null }) {
  return value ? <Trans>{value} Uhr</Trans> : <Trans>geschlossen</Trans>;
}

export function HarbourFactsLoading() {
  return <span className="text-slate-600"><Trans>Wird geladen …</Trans></span>;
}
