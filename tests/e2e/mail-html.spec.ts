/**
 * One look for all e-mails (issue 22, item 3): staff book a walk-in guest, move the booking and
 * cancel it; the guest's mailbox in the mail catcher receives the confirmation, the change and the
 * cancellation, each with a plain-text part and the branded HTML part send-mail renders from it
 * (supabase/functions/send-mail/html.ts). Each HTML part is rendered in Chromium at 375 px (no
 * horizontal overflow, the booking's facts and the booking button on screen) in light and dark
 * mode, in German and English; screenshots go to reports/screenshots/.
 */
import { expect, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import { berlinDay, personaToken, uniqueEmail } from './booking-helpers.ts';
import { rest, rpc, waitForMail, type CaughtMail } from './payment-helpers.ts';

const words = {
  de: {
    confirmation: /^Ihre Buchung im Hafen Düsseldorf/,
    changed: /^Buchung geändert/,
    cancelled: /^Buchung storniert/,
    greeting: 'Guten Tag Mara Mail,',
    signOff: 'Mit freundlichen Grüßen',
    button: 'Ihre Buchung',
    label: 'Buchungsnummer',
  },
  en: {
    confirmation: /^Your booking at Hafen Düsseldorf/,
    changed: /^Booking changed/,
    cancelled: /^Booking cancelled/,
    greeting: 'Hello Mara Mail,',
    signOff: 'Kind regards',
    button: 'Your booking',
    label: 'Booking number',
  },
} as const;

for (const locale of ['de', 'en'] as const) {
  test(`the confirmation, change and cancellation e-mails have a plain-text and a branded HTML part that fits 375 px, light and dark (${locale})`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const w = words[locale];
    const token = await personaToken(personas.harbour.email, personas.harbour.password);
    const email = uniqueEmail(`mail-html-${locale}`);
    const since = new Date(Date.now() - 1000).toISOString();
    const arrival = berlinDay(60);
    const departure = berlinDay(62);
    const free = await rpc<{ place_id: string }[]>(
      'search_available_places',
      { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 6, p_boat_width: 2.5 },
      token,
    );
    expect(free.status, JSON.stringify(free.data)).toBe(200);
    let orderId: string | undefined;
    let bookingNumber = '';
    for (const place of free.data.slice(0, 10)) {
      const res = await rpc<{ id: string; booking_number: string }>(
        'staff_create_booking',
        {
          p_place_id: place.place_id,
          p_kind: 'overnight',
          p_arrival: arrival,
          p_departure: departure,
          p_boat: { name: 'Möwe <b>II</b>', length: 6, width: 2.5 },
          p_person: { first_name: 'Mara', last_name: 'Mail', email, locale },
        },
        token,
      );
      if (res.status !== 200) continue;
      orderId = res.data.id;
      bookingNumber = res.data.booking_number;
      break;
    }
    expect(orderId, 'a free berth for the walk-in').toBeDefined();
    const targets = await rpc<{ place_id: string }[]>('order_move_targets', { p_order_id: orderId }, token);
    expect(targets.status, JSON.stringify(targets.data)).toBe(200);
    expect((await rpc('move_booking', { p_order_id: orderId, p_place_id: targets.data[0]!.place_id }, token)).status).toBe(200);
    expect((await rpc('cancel_booking', { p_order_id: orderId }, token)).status).toBe(200);

    const mails: [string, CaughtMail][] = [
      ['confirmation', await waitForMail(email, since, w.confirmation)],
      ['changed', await waitForMail(email, since, w.changed)],
      ['cancelled', await waitForMail(email, since, w.cancelled)],
    ];
    for (const [name, mail] of mails) {
      // Both parts, and they say the same: the text's greeting, facts and sign-off are in the HTML.
      expect(mail.text).toContain(w.greeting);
      expect(mail.html, `${name}: an HTML part`).toBeTruthy();
      await page.setViewportSize({ width: 375, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setContent(mail.html!, { waitUntil: 'load' });
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const body = page.locator('body');
      await expect(body).toContainText(w.greeting);
      // "Buchungsnummer: HD-…" of the text is a row of the facts table
      await expect(page.locator('tr:has(> td.label)', { hasText: w.label })).toContainText(bookingNumber);
      await expect(body).toContainText(w.signOff);
      // The boat's name is text, never markup.
      await expect(body).toContainText('Möwe <b>II</b>');
      await expect(page.locator('body b')).toHaveCount(0);
      const button = page.getByRole('link', { name: w.button, exact: true });
      await expect(button).toBeVisible();
      expect(await button.getAttribute('href')).toMatch(new RegExp(`/order/${orderId}$`));
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name}: no horizontal scrolling at 375 px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `reports/screenshots/mail-${name}-${locale}-375.png`, fullPage: true });
      await page.emulateMedia({ colorScheme: 'dark' });
      const card = page.locator('.card');
      await expect(card).toHaveCSS('background-color', 'rgb(23, 36, 47)');
      await page.screenshot({ path: `reports/screenshots/mail-${name}-${locale}-375-dark.png`, fullPage: true });
    }
  });
}

test.describe('the e-mail tick', () => {
  test.use({ persona: 'harbour' });
  test('staff move a booking without telling the guest: the dialog offers the tick, unticked no e-mail goes out (de)', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const token = await personaToken(personas.harbour.email, personas.harbour.password);
    const email = uniqueEmail('mail-tick');
    const free = await rpc<{ place_id: string }[]>(
      'search_available_places',
      { p_kind: 'overnight', p_arrival: berlinDay(64), p_departure: berlinDay(65), p_boat_length: 6, p_boat_width: 2.5 },
      token,
    );
    let orderId: string | undefined;
    for (const place of free.data.slice(0, 10)) {
      const res = await rpc<{ id: string }>(
        'staff_create_booking',
        {
          p_place_id: place.place_id,
          p_kind: 'overnight',
          p_arrival: berlinDay(64),
          p_departure: berlinDay(65),
          p_boat: { name: 'Stille', length: 6, width: 2.5 },
          p_person: { first_name: 'Tim', last_name: 'Tick', email },
        },
        token,
      );
      if (res.status === 200) {
        orderId = res.data.id;
        break;
      }
    }
    expect(orderId, 'a free berth for the walk-in').toBeDefined();
    await page.goto(`/account/admin/orders/${orderId}`);
    const move = page.getByRole('region', { name: 'Umlegen' });
    const target = move.getByLabel('Neuer Liegeplatz');
    await target.selectOption({ index: 1 });
    await move.getByRole('button', { name: 'Umlegen' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Buchung umlegen?' });
    const tick = dialog.getByRole('checkbox', { name: `Gast per E-Mail informieren (${email})` });
    await expect(tick).toBeChecked();
    await tick.click();
    await expect(tick).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Umlegen' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'umgelegt' })).toBeVisible();
    // The move is in the order's history, and the guest's mailbox has the confirmation only.
    const mails = await rest<{ kind: string }[]>(`rest/v1/outbox?order_id=eq.${orderId}&select=kind`, token);
    expect(mails.data.map((m) => m.kind)).toEqual(['booking_confirmation']);
    expect(consoleErrors).toEqual([]);
  });
});
