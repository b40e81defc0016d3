import type { ProfileRow } from '@/features/booking/api/profile';
import type { PersonValues } from '@/features/booking/schemas/person';
import { storedPersonFields, type StoredPerson } from '@/features/booking/schemas/stored-person';

/*
 * The person form's remembered data (local storage, "save my data") and its first values: used
 * by the flow at steps 3 and 5, apart from the summary step, which loads with step 5.
 */

const STORAGE_KEY = 'booking-person';

export function readStoredPerson(): StoredPerson | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as StoredPerson) : undefined;
  } catch {
    return undefined;
  }
}

export function storePerson(values: PersonValues) {
  try {
    if (values.saveData) {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(storedPersonFields.map((k) => [k, values[k]]))));
    } else {
      localStorage.removeItem(STORAGE_KEY);
    }
  } catch {
    // storage blocked: nothing is remembered
  }
}

/** The person form's first values: typed so far, else the profile, else local storage, else step 3. */
export function initialPerson(sources: {
  draft?: StoredPerson;
  profile?: ProfileRow | null;
  stored?: StoredPerson;
  identity?: { email: string; firstName: string; lastName: string };
  email?: string;
}): PersonValues {
  const { draft, profile, stored, identity } = sources;
  const pick = (k: (typeof storedPersonFields)[number], fromProfile?: string | null) => draft?.[k] || fromProfile || stored?.[k] || '';
  const email = identity?.email || sources.email || draft?.email || profile?.email || stored?.email || '';
  return {
    firstName: draft?.firstName || profile?.first_name || identity?.firstName || stored?.firstName || '',
    lastName: draft?.lastName || profile?.last_name || identity?.lastName || stored?.lastName || '',
    email,
    phone: pick('phone', profile?.phone),
    company: pick('company', profile?.company),
    street: pick('street', profile?.street),
    postalCode: pick('postalCode', profile?.postal_code),
    city: pick('city', profile?.city),
    country: pick('country', profile?.country),
    // Consent is an act of the person: never ticked in advance (DSGVO Art. 7, Art. 25(2); issue 40 item 11).
    saveData: false,
    saleCode: '',
    acceptTerms: false,
  };
}
