/**
 * Holders' absences (issue 43 deliverable 4, docs/adr/0054-holder-absences.md), one journey per
 * language: a long-term holder enters when they are away on their account page; a guest's search
 * for those nights offers the berth, marked as let from the holder's absence (de); a guest books
 * nights of it, and the holder's early return into those nights is refused with the nights named
 * (en). State around the journeys is set up through the API: a fresh berth (the smallest, so it
 * leads the search) held by a fresh account; the guest's booking as the seeded customer.
 */
import type { Page } from '@playwright/test';
import { journeyIn, test, expect } from '../helpers/app-test';
import { fillDate } from '../helpers/dates';
import { personas } from '../helpers/personas';
import { apiUrl, berlinDay, calendarDay, fillBerthData, personaToken, uniqueEmail } from './booking-helpers';
import { apiCustomer, sessionInto } from './account-helpers';
import { adminToken, createBerth, rest, uniqueName } from './admin-helpers';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';

test.setTimeout(120_000);

const text = {
  de: {
    region: 'Abwesenheiten',
    away: 'Weg ab (erste Nacht)',
    back: 'Zurück am',
    enter: 'Abwesenheit eintragen',
    entered: /Weg ab .*, zurück am .* \(6 Nächte\)/,
    edit: /^Abwesenheit ab .* ändern$/,
    save: 'Änderung speichern',
    refused: /^Diese Nächte sind schon an Gäste vergeben: .+\. Ihre Abwesenheit muss sie weiter einschließen/,
    letNights: /^Schon an Gäste vergeben: /,
    mark: 'Frei, weil der Langzeitlieger unterwegs ist',
    results: 'Freie Liegeplätze',
  },
  en: {
    region: 'Absences',
    away: 'Away from (first night)',
    back: 'Back on',
    enter: 'Enter absence',
    entered: /Away from .*, back on .* \(6 nights\)/,
    edit: /^Change the absence from /,
    save: 'Save changes',
    refused: /^These nights are already let to guests: .+\. Your absence must still include them/,
    letNights: /^Already let to guests: /,
    mark: "Let from the holder's absence",
    results: 'Free berths',
  },
} as const;

/** A fresh account holding a fresh small berth from today for two years: its e-mail, password and the berth's name. */
async function freshHolder(locale: 'de' | 'en') {
  const email = uniqueEmail(`abwesend-${locale}`);
  const password = 'Abwesend123';
  await apiCustomer(email, password, { locale, first_name: 'Henrike', last_name: 'Halter' });
  const { user } = (await (
    await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).json()) as { user: { id: string } };
  const berth = uniqueName('ABW');
  const placeId = await createBerth(berth, { length: 3.1, width: 1.3 });
  const assigned = await rest(await adminToken(), 'rpc/assign_long_term_holder', {
    method: 'POST',
    body: { p_place_id: placeId, p_starts_on: calendarDay(0), p_ends_on: calendarDay(730), p_holder: { user_id: user.id } },
  });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  return { email, password, berth, placeId };
}

/** A fresh holder signs in and enters an absence of six nights from day `first` on their account page. */
async function enterAbsence(page: Page, locale: 'de' | 'en', first: number) {
  const w = text[locale];
  const holder = await freshHolder(locale);
  await sessionInto(page, holder.email, holder.password);
  await page.goto(`/${locale}/account/long-time-place`);
  const absences = page.getByRole('region', { name: w.region });
  await fillDate(absences.getByLabel(w.away, { exact: true }), berlinDay(first));
  await fillDate(absences.getByLabel(w.back, { exact: true }), berlinDay(first + 6));
  await absences.getByRole('button', { name: w.enter }).click();
  await expect(absences.getByRole('listitem').filter({ hasText: w.entered })).toHaveCount(1);
  return { holder, absences };
}

for (const locale of ['de', 'en'] as const) {
  const w = text[locale];
  // Nights 180-185 (de) and 190-195 (en) after the run's base: days no other spec books.
  const first = locale === 'de' ? 180 : 190;

  if (journeyIn(locale, 'de'))
    test(`a holder enters an absence and a guest's search offers the berth for those nights (${locale})`, async ({
      page,
      consoleErrors,
    }) => {
      const { holder } = await enterAbsence(page, locale, first);

      // A guest (signed out) searches nights 181-183 for a boat that fits the berth.
      await page.evaluate(() => localStorage.clear());
      await page.goto(`/${locale}/start/booking`);
      await fillBerthData(page, locale, {
        arrival: berlinDay(first + 1),
        departure: berlinDay(first + 4),
        length: '3',
        width: '1,2',
        boat: 'Gastboot',
      });
      const card = page.getByRole('list', { name: w.results }).locator(`li[data-place="${holder.berth}"]`);
      await expect(card).toBeVisible();
      await expect(card.getByTestId('from-absence')).toHaveText(w.mark);
      expect(consoleErrors).toEqual([]);
    });

  if (journeyIn(locale, 'en'))
    test(`a holder who comes back early into nights let to a guest is refused, with the nights (${locale})`, async ({
      page,
      consoleErrors,
    }) => {
      const { holder, absences } = await enterAbsence(page, locale, first);

      // A guest books nights first+3 and first+4 of the absence.
      const guest = await personaToken(personas.customer.email, personas.customer.password);
      const booked = await rest(guest, 'rpc/create_booking', {
        method: 'POST',
        body: {
          p_place_id: holder.placeId,
          p_kind: 'overnight',
          p_arrival: berlinDay(first + 3),
          p_departure: berlinDay(first + 5),
          p_boat: { name: 'Gastboot', length: 3, width: 1.2 },
          p_person: { first_name: 'Klaus', last_name: 'Kunde' },
        },
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);

      // The holder sees the let nights, then tries to come back on first+4: refused, with the nights named.
      await page.reload();
      await expect(absences.getByText(w.letNights)).toBeVisible();
      await absences.getByRole('button', { name: w.edit }).click();
      const back = absences.getByLabel(w.back, { exact: true });
      await fillDate(back, berlinDay(first + 4));
      await absences.getByRole('button', { name: w.save }).click();
      await expect(absences.getByRole('alert')).toHaveText(w.refused);
      // The absence is unchanged: still six nights.
      await page.reload();
      await expect(absences.getByRole('listitem').filter({ hasText: w.entered })).toHaveCount(1);
      // The 409 of the refused save_holder_absence is expected; the page logs nothing else.
      expect(consoleErrors.filter((e) => !(e.includes('409') && e.includes('rpc/save_holder_absence')))).toEqual([]);
    });
}
