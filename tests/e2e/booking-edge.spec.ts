import { expect as baseExpect, test } from '../helpers/app-test';
import { berlinDay, chooseFirstBerth, fillBerthData, proceedAsGuest, uniqueEmail, words } from './booking-helpers';
import { expectDate, fillDate } from '../helpers/dates';

// Whole journeys on a 2-core machine shared with other suites: generous time limits.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test.describe('booking: input, no berth, leaving, races', () => {
  test('impossible input gets its message in German and English', async ({ page }) => {
    for (const locale of ['de', 'en'] as const) {
      await page.goto(`/${locale}/start/booking`);
      const w = words(locale);
      // Departure before arrival, a 0 m boat, letters in the width.
      await fillBerthData(page, locale, { arrival: berlinDay(10), departure: berlinDay(8), length: '0', width: 'drei', boat: 'Test' });
      const msg =
        locale === 'de'
          ? {
              dep: 'Die Abreise muss nach der Anreise liegen',
              len: 'Die Bootslänge muss zwischen 1 und 60 m liegen',
              num: 'Bitte geben Sie eine Zahl in Metern ein, z. B. 9,5',
              day: 'Ein Tagesliegeplatz ist höchstens 5 Stunden buchbar',
            }
          : {
              dep: 'Departure must be after arrival',
              len: 'The boat length must be between 1 and 60 m',
              num: 'Please enter a number in metres, e.g. 9.5',
              day: 'A day berth can be booked for at most 5 hours',
            };
      await expect(page.getByText(msg.dep)).toBeVisible();
      await expect(page.getByText(msg.len)).toBeVisible();
      await expect(page.getByText(msg.num)).toBeVisible();
      await expect(page.getByLabel(w.length)).toHaveAttribute('aria-invalid', 'true');
      // A 6-hour day stay.
      await fillBerthData(page, locale, { kind: 'day', arrival: berlinDay(10), from: '09:00', until: '15:00', length: '8', width: '3' });
      await expect(page.getByText(msg.day)).toBeVisible();
      // Nothing was searched: still step 1.
      await expect(page.getByRole('list', { name: w.results })).toHaveCount(0);
    }
  });

  test('a fair boater berth: the fair period is shown, inside it berths are found, outside it the search says so', async ({ page }) => {
    // The seed's fair: boot Düsseldorf, 17-25 January of the coming (or current) season.
    const today = berlinDay(0);
    const [y, m, d] = today.split('-').map(Number);
    const year = m === 1 && d <= 25 ? y : y + 1;
    const arrival = year === y && d >= 17 ? today : `${year}-01-18`;
    const departure = year === y && d >= 17 ? berlinDay(1) : `${year}-01-20`;
    await page.goto('/de/start/booking');
    await page.getByRole('radio', { name: /^Messe-Liegeplatz/ }).click();
    await expect(page.getByText(/boot Düsseldorf \d{4}: Anreise ab/)).toBeVisible();
    await fillDate(page.getByLabel('Anreise', { exact: true }), arrival);
    await fillDate(page.getByLabel('Abreise', { exact: true }), departure);
    await page.getByLabel('Bootslänge (m)').fill('5');
    await page.getByLabel('Bootsbreite (m)').fill('2');
    await page.getByLabel('Bootsname', { exact: true }).fill('Messe');
    await page.getByRole('button', { name: 'Freie Liegeplätze suchen' }).click();
    await expect(
      page
        .getByRole('list', { name: 'Freie Liegeplätze' })
        .getByRole('button', { name: /wählen$/ })
        .first(),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Angaben ändern' }).click();
    await fillDate(page.getByLabel('Anreise', { exact: true }), `${year}-03-02`);
    await fillDate(page.getByLabel('Abreise', { exact: true }), `${year}-03-04`);
    // The form knows the fair periods (issue 40 item 4): it says so at once, no search is sent.
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rpc/search_available_places')) searches.push(r.url());
    });
    await page.getByRole('button', { name: 'Freie Liegeplätze suchen' }).click();
    await expect(
      page.getByText(
        'Messe-Liegeplätze sind nur innerhalb eines Messezeitraums buchbar: Anreise und letzte Nacht müssen in einer Messe liegen.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('list', { name: 'Freie Liegeplätze' })).toHaveCount(0);
    expect(searches).toEqual([]);
  });

  test('a day berth in the evening: the default window is still ahead, a past one is refused in the form without a request', async ({
    page,
  }) => {
    // The browser's clock at 21:30 in Düsseldorf today: today's windows are over (issue 40 item 4).
    const today = berlinDay(0);
    const offset =
      new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
        .formatToParts(new Date(`${today}T12:00:00Z`))
        .find((p) => p.type === 'timeZoneName')!
        .value.replace('GMT', '') || '+00:00';
    await page.clock.setFixedTime(new Date(`${today}T21:30:00${offset}`));
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rpc/search_available_places')) searches.push(r.url());
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/de/start/booking');
    await page.getByRole('radio', { name: /^Tagesliegeplatz/ }).click();
    // The default moves to tomorrow's window.
    await expectDate(page.getByLabel('Datum', { exact: true }), berlinDay(1));
    await expect(page.getByLabel('Von', { exact: true })).toHaveValue('10:00');
    await expect(page.getByLabel('Bis', { exact: true })).toHaveValue('14:00');
    // Today 10:00-14:00 has passed: the form says so and sends nothing.
    await fillBerthData(page, 'de', {
      kind: 'day',
      arrival: today,
      from: '10:00',
      until: '14:00',
      length: '8',
      width: '3',
      boat: 'Abendrot',
    });
    await expect(
      page.getByText('Dieses Zeitfenster ist heute schon vorbei. Bitte wählen Sie eine spätere Uhrzeit oder einen anderen Tag.'),
    ).toBeVisible();
    await expect(page).not.toHaveURL(/step=2/);
    expect(searches).toEqual([]);

    // On a phone the five steps stand in one row, also at step 3 with its long title (issue 40
    // item 13: steps 4 and 5 wrapped). The flow as kept in session storage, a berth chosen.
    await page.evaluate(
      (b) =>
        sessionStorage.setItem(
          'booking-flow',
          JSON.stringify({ berth: b, place: { place_id: '00000000-0000-0000-0000-000000000000', name: 'A01' } }),
        ),
      {
        kind: 'overnight',
        arrival: berlinDay(1),
        departure: berlinDay(2),
        dayStart: '10:00',
        dayEnd: '14:00',
        boatLength: '8',
        boatWidth: '3',
        boatName: 'Abendrot',
        boatTag: '',
      },
    );
    await page.goto('/de/start/booking?step=3');
    const steps = page.getByRole('navigation', { name: 'Buchungsschritte' });
    await expect(steps.locator('[aria-current="step"]')).toContainText('Wie möchten Sie fortfahren?');
    const tops = await steps.getByRole('listitem').evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));
    expect(tops).toHaveLength(5);
    expect(new Set(tops).size).toBe(1);
  });

  test('a search the database refuses is shown at once, asked once (no retries)', async ({ page }) => {
    // A flow kept from yesterday (session storage) opened at step 2: the database says
    // period_in_past (22023); that answer is final, so there is one request and the message.
    await page.goto('/en/start');
    const berth = {
      kind: 'overnight',
      arrival: berlinDay(-1),
      departure: berlinDay(0),
      dayStart: '10:00',
      dayEnd: '14:00',
      boatLength: '8',
      boatWidth: '3',
      boatName: 'Gestern',
      boatTag: '',
    };
    await page.evaluate((b) => sessionStorage.setItem('booking-flow', JSON.stringify({ berth: b })), berth);
    const searches: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/rpc/search_available_places')) searches.push(r.status());
    });
    const started = Date.now();
    await page.goto('/en/start/booking?step=2');
    await expect(page.getByRole('alert')).toHaveText('The period lies in the past.');
    expect(Date.now() - started).toBeLessThan(5_000);
    // Long enough for react-query's retry (1 s, then 2 s) to have fired had there been one.
    await page.waitForTimeout(3_500);
    expect(searches).toEqual([400]);
  });

  test('no fitting berth shows the dialog with a prefilled e-mail to the harbour', async ({ page }) => {
    await page.goto('/de/start/booking');
    await fillBerthData(page, 'de', { arrival: berlinDay(12), departure: berlinDay(14), length: '30', width: '7', boat: 'Riesin' });
    const dialog = page.getByRole('dialog', { name: 'Kein Liegeplatz verfügbar' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('E-Mail mit Bootsgröße und Zeitraum');
    const href = await dialog.getByRole('link', { name: 'E-Mail an den Hafen schreiben' }).getAttribute('href');
    expect(href).toMatch(/^mailto:hafen@/);
    const body = decodeURIComponent(new URL(href!).searchParams.get('body') ?? '');
    expect(body).toContain('Riesin');
    expect(body).toContain('30 m × 7 m');
    await dialog.getByRole('button', { name: 'Angaben ändern' }).click();
    await expect(page.getByLabel('Bootslänge (m)')).toHaveValue('30');
  });

  test('leaving mid-flow asks for confirmation (tab, back button, closing), a reload keeps the flow', async ({ page }) => {
    await page.goto('/de/start');
    await page.getByRole('main').getByRole('link', { name: 'Jetzt buchen' }).first().click();
    await expect(page).toHaveURL(/\/de\/start\/booking$/);
    await fillBerthData(page, 'de', { arrival: berlinDay(15), departure: berlinDay(16), length: '7', width: '2,5', boat: 'Bleib' });
    await expect(page.getByRole('list', { name: 'Freie Liegeplätze' })).toBeVisible();

    // A tab of the bottom navigation: asks, and staying keeps everything.
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Kontakt' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Buchung abbrechen?' });
    await expect(ask).toContainText('Buchungsvorgang abgebrochen');
    await ask.getByRole('button', { name: 'Weiter buchen' }).click();
    await expect(page).toHaveURL(/\/de\/start\/booking\?step=2$/);
    await expect(page.getByRole('list', { name: 'Freie Liegeplätze' })).toBeVisible();

    // The back button: one step back stays in the flow, leaving it asks.
    await page.goBack();
    await expect(page.getByLabel('Bootsname', { exact: true })).toHaveValue('Bleib');
    await page.goBack();
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Seite verlassen' }).click();
    await expect(page).toHaveURL(/\/de\/start$/);

    // The data is gone after leaving.
    await page.getByRole('main').getByRole('link', { name: 'Jetzt buchen' }).first().click();
    await expect(page.getByLabel('Bootsname', { exact: true })).toHaveValue('');

    // A reload keeps the flow (the browser asks first; accepting reloads).
    await fillBerthData(page, 'de', { arrival: berlinDay(15), departure: berlinDay(16), length: '7', width: '2,5', boat: 'Zu' });
    await expect(page.getByRole('list', { name: 'Freie Liegeplätze' })).toBeVisible();
    page.once('dialog', (d) => void d.accept());
    await page.reload();
    await expect(page.getByRole('list', { name: 'Freie Liegeplätze' })).toBeVisible();
    await page.goBack();
    await expect(page.getByLabel('Bootsname', { exact: true })).toHaveValue('Zu');

    // Closing the page asks too (beforeunload).
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.accept();
  });

  test('two browser contexts race for the last fitting berth: exactly one wins, the other is sent back with a message', async ({
    browser,
  }) => {
    const arrival = berlinDay(60);
    const departure = berlinDay(61);
    // 24.5 m fits only the largest berth (E10, 25 m).
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    await Promise.all(
      pages.map(async (page, i) => {
        await page.goto('/de/start/booking');
        await fillBerthData(page, 'de', { arrival, departure, length: '24,5', width: '5', boat: `Renner ${i}` });
        await expect(page.getByRole('list', { name: 'Freie Liegeplätze' }).getByRole('button', { name: /wählen$/ })).toHaveCount(1);
        await chooseFirstBerth(page, 'de');
        await proceedAsGuest(page, 'de', { email: uniqueEmail(`renner${i}`), first: 'Rita', last: `Renner ${i}` });
        await page.getByRole('button', { name: words('de').skip }).click();
        await page.getByRole('checkbox', { name: words('de').terms }).click();
      }),
    );
    await Promise.all(pages.map((page) => page.getByRole('button', { name: 'Verbindlich buchen' }).click()));
    const outcomes = await Promise.all(
      pages.map(async (page) => {
        const won = page.waitForURL(/\/start\/booking\/result\//, { timeout: 15_000 }).then(() => 'won' as const);
        const lost = page
          .getByText('Der gewählte Liegeplatz wurde gerade von jemand anderem gebucht', { exact: false })
          .first()
          .waitFor({ timeout: 15_000 })
          .then(() => 'lost' as const);
        return Promise.race([won, lost]);
      }),
    );
    expect([...outcomes].sort()).toEqual(['lost', 'won']);
    const loser = pages[outcomes.indexOf('lost')];
    await expect(loser).toHaveURL(/\/de\/start\/booking\?step=2$/);
    // Fresh results: the berth is gone, so nothing fits any more.
    await expect(loser.getByRole('dialog', { name: 'Kein Liegeplatz verfügbar' })).toBeVisible();
    await Promise.all(contexts.map((c) => c.close()));
  });
});
