/**
 * The fields kept in local storage when 'save my data' is ticked (re-exported by person.ts). A
 * module without zod: the flow reads them on step 1, before the person form loads.
 */
export const storedPersonFields = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'street',
  'postalCode',
  'city',
  'country',
] as const;
export type StoredPerson = Partial<Record<(typeof storedPersonFields)[number], string>>;
