import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { harbour } from '@/lib/harbour';
import { harbourIntroQueryOptions } from '@/lib/harbour-intro';

export { telHref } from '@/lib/harbour-intro';

/** The harbour's address, phone, e-mail and office hours as the contact, door-code and legal pages show them. */
export interface HarbourFacts {
  street: string;
  postalCode: string;
  city: string;
  /** "08:00–18:00" or null (closed). */
  weekdays: string | null;
  weekend: string | null;
  /** The admin's note on the office hours in the page's language ('' when none). */
  note: string;
  /** "+49 211 1234560" and the e-mail address. */
  phone: string;
  email: string;
}

const span = (opens: string | null, closes: string | null) => (opens && closes ? `${opens}–${closes}` : null);

/**
 * The address, phone, e-mail and office hours an admin set (harbour_intro(), as on the start page); null while
 * it loads. Only when the API cannot answer (offline, an old database) the built-in values of
 * src/lib/harbour.ts stand in, so the imprint and contact page never lack an address.
 */
export function useHarbourFacts(): HarbourFacts | null {
  const { i18n } = useLingui();
  const intro = useQuery(harbourIntroQueryOptions);
  if (intro.isPending) return null;
  const data = intro.data;
  if (intro.isError || !data) {
    return {
      street: harbour.street,
      postalCode: harbour.postalCode,
      city: harbour.city,
      weekdays: harbour.hours.weekdays,
      weekend: harbour.hours.weekend,
      note: '',
      phone: harbour.phone,
      email: harbour.email,
    };
  }
  return {
    street: data.address_street,
    postalCode: data.address_postal_code,
    city: data.address_city,
    weekdays: span(data.office_weekdays_opens, data.office_weekdays_closes),
    weekend: span(data.office_weekend_opens, data.office_weekend_closes),
    note: (i18n.locale === 'en' && data.office_hours_note_en) || data.office_hours_note,
    // An older database without them: the built-in ones.
    phone: data.phone || harbour.phone,
    email: data.email || harbour.email,
  };
}

/** "08:00–18:00 Uhr" or "geschlossen". */
export function OfficeSpan({ value }: { value: string | null }) {
  return value ? <Trans>{value} Uhr</Trans> : <Trans>geschlossen</Trans>;
}

/**
 * Phone and e-mail for a sentence shown after something happened (a refused form, a missing
 * code): the admin's once loaded, the built-in ones before (or offline).
 */
export function useHarbourContact(): { phone: string; email: string } {
  const facts = useHarbourFacts();
  return { phone: facts?.phone ?? harbour.phone, email: facts?.email ?? harbour.email };
}

export function HarbourFactsLoading() {
  return (
    <span className="text-slate-600">
      <Trans>Wird geladen …</Trans>
    </span>
  );
}
