import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay, personaToken } from './booking-helpers.ts';
import { barOn, berthName, showBerths } from './timeline-helpers.ts';
import { fillDate } from '../helpers/dates';

test.describe('maintenance blocks from the calendar', () => {
  test.use({ persona: 'harbour' });

  test('staff block a free berth for a day; the same block again is refused with a clear message; lifting it frees the berth', async ({
    page,
    consoleErrors,
  }) => {
    const day = berlinDay(20);
    const token = await personaToken(personas.harbour.email, personas.harbour.password);
    const res = await fetch(`${apiUrl}/rest/v1/rpc/search_available_places`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_kind: 'overnight', p_arrival: day, p_departure: berlinDay(21), p_boat_length: 8, p_boat_width: 3 }),
    });
    expect(res.status).toBe(200);
    const free = (await res.json()) as { place_id: string }[];
    const placeId = free.at(-1)!.place_id;

    await page.goto(`/account/admin/calendar?from=${day}&view=day`);
    await showBerths(page, [await berthName(placeId)]);
    const bar = barOn(page, placeId, day);
    await expect(bar).toHaveCount(0);
    const form = page.getByRole('form', { name: 'Liegeplatz sperren' });
    await form.getByLabel('Liegeplatz').selectOption(placeId);
    await form.getByLabel('Art').selectOption('maintenance');
    await fillDate(form.getByLabel('Von'), day);
    await fillDate(form.getByLabel('Bis einschließlich'), day);
    await form.getByLabel('Notiz (optional)').fill('Poller erneuern');
    await form.getByRole('button', { name: 'Sperre speichern' }).click();
    await expect(form.getByRole('status')).toHaveText('Sperre gespeichert.');
    await expect(bar).toHaveAttribute('data-kind', 'maintenance');
    await expect(bar).toContainText('Wart.');
    await expect(bar).toHaveAttribute('aria-label', /Wartung · Poller erneuern/);

    await form.getByRole('button', { name: 'Sperre speichern' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Der Liegeplatz ist in diesem Zeitraum schon belegt oder gesperrt. Bitte einen anderen Zeitraum oder Liegeplatz wählen.',
    );
    // Lifting the block from the bar's details frees the berth again.
    await bar.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sperre aufheben' }).click();
    await expect(bar).toHaveCount(0);
    // The 23P01 answer of the API is expected here; the page itself logs nothing else.
    expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('rpc/add_berth_block'))).toEqual([]);
  });
});
