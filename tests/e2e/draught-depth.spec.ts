/**
 * Draught against depth (issue 43 item 3, docs/adr/0053 "Draught against depth"): the gauge
 * sandbox plays low water (1.50 m at the Düsseldorf gauge over the forecast days); a berth whose
 * depth was measured as 2.00 m at a gauge level of 4.00 m then has 0.50 m, too little for a boat
 * of 2.0 m draught with the 30 cm margin: the search leaves it out and says why, in de and en.
 * The berth's depth and the river are set back afterwards (other searches give no draught, so
 * they are not affected meanwhile).
 */
import { expect, journeyIn, test } from '../helpers/app-test';
import { berlinDay, fillBerthData, personaToken, words } from './booking-helpers.ts';
import { calmRiver, flatForecast as flat, river } from './gauge-helpers.ts';
import { personas } from '../helpers/personas.ts';
import { rest, rpc } from './rest-helpers.ts';

const arrival = berlinDay(1);
const departure = berlinDay(2);
let admin = '';
let shallow: { place_id: string; name: string } | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  admin = await personaToken(personas.admin.email, personas.admin.password);
  // The smallest free berth for a 9 x 3 m boat over these nights gets a depth of 2.00 m at 4.00 m.
  const found = await rpc<{ place_id: string; name: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 9, p_boat_width: 3 },
    admin,
  );
  expect(found.status).toBe(200);
  shallow = found.data[0];
  const patched = await rest(`places?id=eq.${shallow.place_id}`, admin, {
    method: 'PATCH',
    body: { depth_cm: 200, depth_reference_cm: 400 },
  });
  expect(patched.status).toBe(204);
  await river({ level_cm: 160, trend: -1, forecast: flat(150), offline: false });
});

test.afterAll(async () => {
  if (shallow)
    await rest(`places?id=eq.${shallow.place_id}`, admin, { method: 'PATCH', body: { depth_cm: null, depth_reference_cm: null } });
  await calmRiver();
});

for (const locale of ['de', 'en'] as const) {
  test(`low water hides the berth too shallow for a deep boat and the search says why (${locale})`, async ({ page, consoleErrors }) => {
    const w = words(locale);
    await page.goto(`/${locale}/start/booking`);
    if (journeyIn(locale, 'de')) {
      // The form checks the draught first (the database again: invalid_boat_draught).
      await fillBerthData(page, locale, { arrival, departure, length: '9', width: '3', draught: '7', boat: 'Kielboot' });
      await expect(page.getByText('Der Tiefgang muss zwischen 0,1 und 5 m liegen')).toBeVisible();
      await page.getByLabel(w.draught).fill('2,0');
      await page.getByRole('button', { name: w.search }).click();
    } else {
      await fillBerthData(page, locale, { arrival, departure, length: '9', width: '3', draught: '2.0', boat: 'Keelboat' });
    }
    const list = page.getByRole('list', { name: w.results });
    await expect(list.getByRole('listitem').first()).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: locale === 'de' ? /Liegeplatz ist|Liegeplätze sind/ : /berths? (is|are) too shallow/ }),
    ).toHaveText(
      locale === 'de'
        ? /^\d+ Liegepl(atz ist|ätze sind) beim für Ihren Aufenthalt vorhergesagten Rheinpegel \(150 cm am Pegel Düsseldorf\) zu flach für Ihren Tiefgang und (wird|werden) nicht angezeigt \(wir halten 30 cm Wasser unter dem Kiel frei\)\.$/
        : /^\d+ berths? (is|are) too shallow for your draught at the Rhine level forecast for your stay \(150 cm at the Düsseldorf gauge\) and (is|are) not shown \(we keep 30 cm of water under the keel\)\.$/,
    );
    await expect(list.getByRole('heading', { name: new RegExp(`^(Liegeplatz|Berth) ${shallow!.name}$`) })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
}
