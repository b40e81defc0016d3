/** The harbour's contact data, shown on the contact, service and legal pages. */
export const harbour = {
  name: 'Hafen Düsseldorf',
  street: 'Speditionstraße 25',
  postalCode: '40221',
  city: 'Düsseldorf',
  phone: '+49 211 1234560',
  email: 'hafen@hafen-duesseldorf.example',
  /** Office hours, Europe/Berlin. */
  hours: { weekdays: '08:00–18:00', weekend: '09:00–17:00' },
} as const;
