import { describe, expect, it } from 'vitest';
import { initialPerson } from '@/features/booking/components/person-draft';
import { getFlow, reachableStep, resetFlow, updateFlow } from '@/features/booking/hooks/use-booking-flow';
import { emptyBerthData } from '@/features/booking/schemas/berth-data';

describe('the person form prefill', () => {
  const profile = {
    email: 'klaus@example.test',
    first_name: 'Klaus',
    last_name: 'Kunde',
    company: null,
    phone: '+49 172 1',
    street: 'Rheinufer 1',
    postal_code: '40213',
    city: 'Düsseldorf',
    country: 'Deutschland',
    boat_name: null,
    boat_tag: null,
    boat_length: null,
    boat_width: null,
    boat_draught: null,
  };
  it('takes the profile first, then local storage, and the e-mail of step 3', () => {
    const v = initialPerson({
      profile,
      stored: { phone: '+49 1', city: 'Neuss', company: 'Werft' },
      identity: { email: 'id@example.test', firstName: 'I', lastName: 'D' },
    });
    expect(v).toMatchObject({
      firstName: 'Klaus',
      email: 'id@example.test',
      phone: '+49 172 1',
      city: 'Düsseldorf',
      company: 'Werft',
      saveData: false,
      acceptTerms: false,
      saleCode: '',
    });
  });
  it('a guest without a profile gets local storage, and what was typed in this flow wins', () => {
    const v = initialPerson({
      stored: { phone: '+49 1', city: 'Neuss' },
      draft: { city: 'Köln' },
      identity: { email: 'g@example.test', firstName: 'Greta', lastName: 'Gast' },
    });
    expect(v).toMatchObject({
      firstName: 'Greta',
      lastName: 'Gast',
      email: 'g@example.test',
      phone: '+49 1',
      city: 'Köln',
      saveData: false,
    });
    expect(initialPerson({ identity: { email: 'g@example.test', firstName: 'Greta', lastName: 'Gast' } }).saveData).toBe(false);
  });
});

describe('the booking flow state', () => {
  it('keeps the flow in session storage and clamps the step to what the data allows', () => {
    resetFlow();
    expect(reachableStep(getFlow(), false)).toBe(1);
    updateFlow({
      berth: { ...emptyBerthData, arrival: '2027-05-01', departure: '2027-05-02', boatLength: '9', boatWidth: '3', boatName: 'X' },
    });
    expect(reachableStep(getFlow(), false)).toBe(2);
    expect(JSON.parse(sessionStorage.getItem('booking-flow') ?? '{}').berth.boatName).toBe('X');
    updateFlow({ place: { place_id: 'p' } as never });
    expect(reachableStep(getFlow(), false)).toBe(3);
    expect(reachableStep(getFlow(), true)).toBe(5);
    updateFlow({ identity: { mode: 'guest', email: 'g@example.test', firstName: 'G', lastName: 'G', verified: false, skipped: false } });
    expect(reachableStep(getFlow(), false)).toBe(4);
    updateFlow((s) => ({ ...s, identity: { ...s.identity!, skipped: true } }));
    expect(reachableStep(getFlow(), false)).toBe(5);
    resetFlow();
    expect(sessionStorage.getItem('booking-flow')).toBeNull();
  });
});
