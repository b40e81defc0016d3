import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { StepBerthData } from '@/features/booking/components/step-berth-data';
import { berthDataSchema } from '@/features/booking/schemas/berth-data';
import { addDaysIso, berlinToday } from '@/lib/dates';
import { renderPage } from './render';

const texts = {
  de: {
    arrival: 'Anreise',
    departure: 'Abreise',
    length: 'Bootslänge (m)',
    width: 'Bootsbreite (m)',
    name: 'Bootsname',
    search: 'Freie Liegeplätze suchen',
    day: /^Tagesliegeplatz/,
    from: 'Von',
    until: 'Bis',
    date: 'Datum',
    departureBefore: 'Die Abreise muss nach der Anreise liegen',
    zeroLength: 'Die Bootslänge muss zwischen 1 und 60 m liegen',
    letters: 'Bitte geben Sie eine Zahl in Metern ein, z. B. 9,5',
    sixHours: 'Ein Tagesliegeplatz ist höchstens 5 Stunden buchbar',
    required: 'Pflichtfeld',
  },
  en: {
    arrival: 'Arrival',
    departure: 'Departure',
    length: 'Boat length (m)',
    width: 'Boat width (m)',
    name: 'Boat name',
    search: 'Search free berths',
    day: /^Day berth/,
    from: 'From',
    until: 'Until',
    date: 'Date',
    departureBefore: 'Departure must be after arrival',
    zeroLength: 'The boat length must be between 1 and 60 m',
    letters: 'Please enter a number in metres, e.g. 9.5',
    sixHours: 'A day berth can be booked for at most 5 hours',
    required: 'This field is required',
  },
} as const;

// The resolver first asks for the fair periods and the horizon (no API here: it gives up after
// a failed request, at most 3 s), so the messages may take longer than findBy's default second.
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

for (const locale of ['de', 'en'] as const) {
  const x = texts[locale];
  describe(`booking step 1 validation (${locale})`, () => {
    it('departure before arrival, a 0 m boat and letters in the width each get their message; nothing is submitted', async () => {
      const onSubmit = vi.fn();
      await renderPage(() => <StepBerthData onSubmit={onSubmit} />, { locale });
      await screen.findByRole('button', { name: x.search });
      type(x.arrival, addDaysIso(berlinToday(), 5));
      type(x.departure, addDaysIso(berlinToday(), 3));
      type(x.length, '0');
      type(x.width, 'zwei');
      type(x.name, 'Möwe');
      fireEvent.click(screen.getByRole('button', { name: x.search }));
      expect(await screen.findByText(x.departureBefore, {}, { timeout: 5000 })).toBeTruthy();
      expect(screen.getByText(x.zeroLength)).toBeTruthy();
      expect(screen.getByText(x.letters)).toBeTruthy();
      expect(screen.getByLabelText(x.length).getAttribute('aria-invalid')).toBe('true');
      expect(onSubmit).not.toHaveBeenCalled();
    });

    it('letters in the length, an empty boat name', async () => {
      const onSubmit = vi.fn();
      await renderPage(() => <StepBerthData onSubmit={onSubmit} />, { locale });
      await screen.findByRole('button', { name: x.search });
      type(x.length, 'neun');
      type(x.width, '3');
      fireEvent.click(screen.getByRole('button', { name: x.search }));
      expect(await screen.findByText(x.letters, {}, { timeout: 5000 })).toBeTruthy();
      expect(screen.getByText(x.required)).toBeTruthy();
      expect(onSubmit).not.toHaveBeenCalled();
    });

    it('a 6-hour day stay is refused; 5 hours with a comma decimal is accepted', async () => {
      const onSubmit = vi.fn();
      await renderPage(() => <StepBerthData onSubmit={onSubmit} />, { locale });
      fireEvent.click(await screen.findByRole('radio', { name: x.day }));
      await screen.findByLabelText(x.date);
      type(x.date, addDaysIso(berlinToday(), 2));
      type(x.from, '09:00');
      type(x.until, '15:00');
      type(x.length, '8,5');
      type(x.width, '2.8');
      type(x.name, 'Lotte');
      fireEvent.click(screen.getByRole('button', { name: x.search }));
      expect(await screen.findByText(x.sixHours, {}, { timeout: 5000 })).toBeTruthy();
      expect(onSubmit).not.toHaveBeenCalled();
      type(x.until, '14:00');
      fireEvent.click(screen.getByRole('button', { name: x.search }));
      await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1), { timeout: 5000 });
      expect(onSubmit.mock.calls[0][0]).toMatchObject({
        kind: 'day',
        dayStart: '09:00',
        dayEnd: '14:00',
        boatLength: '8,5',
        boatName: 'Lotte',
      });
    });
  });
}

describe('booking step 1 schema', () => {
  it('refuses arrival in the past and more than 90 nights', () => {
    const schema = berthDataSchema(() => new Date('2026-06-10T10:00:00Z'));
    const base = {
      kind: 'overnight' as const,
      dayStart: '',
      dayEnd: '',
      boatLength: '9',
      boatWidth: '3',
      boatDraught: '',
      boatName: 'X',
      boatTag: '',
    };
    expect(schema.safeParse({ ...base, arrival: '2026-06-09', departure: '2026-06-11' }).success).toBe(false);
    expect(schema.safeParse({ ...base, arrival: '2026-06-10', departure: '2026-09-09' }).success).toBe(false);
    expect(schema.safeParse({ ...base, arrival: '2026-06-10', departure: '2026-09-08' }).success).toBe(true);
  });
});
