import type { Page } from '@playwright/test';
import { expect, journeyIn, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { personas } from '../helpers/personas.ts';
import { berlinDay, chooseFirstBerth, euro, fillBerthData, personaToken } from './booking-helpers.ts';
import { rest, rpc, staffToken } from './rest-helpers.ts';
import { waitForMail } from './payment-helpers.ts';
import { expectDate, fillDate } from '../helpers/dates';

const run = Date.now().toString(36);

/** Staff book a small boat through the API on the first free berth of [arrival, departure). */
async function bookViaApi(
  token: string,
  boat: string,
  arrival: string,
  departure: string,
  skip = 0,
): Promise<{ id: string; place: string }> {
  const free = await rpc<{ place_id: string; name: string }[]>(
    'search_available_places',
    { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 5, p_boat_width: 2 },
    token,
  );
  expect(free.status, JSON.stringify(free.data)).toBe(200);
  for (const place of free.data.slice(skip)) {
    const res = await rpc<{ id: string }>(
      'staff_create_booking',
      {
        p_place_id: place.place_id,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: boat, length: 5, width: 2 },
        p_person: { first_name: 'Api', last_name: `Gast ${run}` },
      },
      token,
    );
    if (res.status === 200) return { id: res.data.id, place: place.name };
  }
  throw new Error('no free berth');
}

async function confirmDialog(page: Page, button: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test.describe('orders desk: walk-in, list, move, payment, invoice', () => {
  test.use({ persona: 'harbour' });

  test('staff book a walk-in guest, find it by search, move it (an overlap is refused), mark it paid and print the invoice (de + en)', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const token = await staffToken();
    const boat = `Walkin ${run}`;
    const email = `walkin-${run}@example.test`;
    const arrival = berlinDay(30);
    const departure = berlinDay(32);

    // 1. The walk-in booking: the booking flow's berth data and search, then the guest typed by staff.
    await page.goto('/account/admin/orders/new');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Neue Buchung (Walk-in / Telefon)');
    expect(await seriousViolations(page)).toEqual([]);
    await fillBerthData(page, 'de', { arrival, departure, length: '9,4', width: '3,2', boat });
    const firstPlace = await chooseFirstBerth(page, 'de');
    const guest = page.getByRole('form', { name: 'Gast' });
    await guest.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(guest.getByText('Pflichtfeld')).toHaveCount(2);
    await guest.getByLabel('E-Mail (optional)').fill('kein-at-zeichen');
    await guest.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(guest.getByText('E-Mail ist nicht gültig')).toBeVisible();
    await guest.getByLabel('Vorname').fill('Wanda');
    await guest.getByLabel('Nachname').fill(`Walk ${run}`);
    await guest.getByLabel('E-Mail (optional)').fill(email);
    await guest.getByLabel('Telefon (optional)').fill('+49 211 555 0101');
    await guest.getByLabel('Straße (optional)').fill('Rheinufer 1');
    await guest.getByLabel('Postleitzahl (optional)').fill('40213');
    await guest.getByLabel('Ort (optional)').fill('Düsseldorf');
    await guest.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(page).toHaveURL(/\/account\/admin\/orders\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Buchung Wanda Walk ${run}`);
    await expect(page.getByTestId('order-place')).toHaveText(firstPlace);
    await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();

    // Confirmed at once, same price as the booking flow; the confirmation e-mail is queued.
    const order = await rest<{ status: string; price_cents: number; email: string; booking_number: string }[]>(
      `orders?id=eq.${orderId}&select=status,price_cents,email,booking_number`,
      token,
    );
    expect(order.data[0]).toMatchObject({ status: 'confirmed', email });
    const q = await rpc<{ gross_cents: number }>(
      'quote_booking',
      { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 9.4 },
      token,
    );
    expect(order.data[0]!.price_cents).toBe(q.data.gross_cents);
    const adminToken = await personaToken(personas.admin.email, personas.admin.password);
    const mail = await rest<{ kind: string; recipient: string }[]>(`outbox?order_id=eq.${orderId}&select=kind,recipient`, adminToken);
    expect(mail.data).toEqual([{ kind: 'booking_confirmation', recipient: email }]);

    // 2. Found in the list by search (boat name), then by e-mail.
    await page.goto('/account/admin/orders');
    await page.getByLabel('Suche (Name, Boot, E-Mail oder Buchungsnummer)').fill(boat);
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(page.getByTestId('orders-total')).toHaveText('1 Bestellung · Seite 1 von 1');
    await page.getByLabel('Suche (Name, Boot, E-Mail oder Buchungsnummer)').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Suchen' }).click();
    // At the phone width of these tests the list shows cards (the table from `sm`).
    const row = page.locator(`[data-order-card="${orderId}"]`);
    await expect(row).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // And by its booking number, read out on the phone in lower case: the one order, its number in the row.
    const bookingNumber = order.data[0]!.booking_number;
    expect(bookingNumber).toMatch(/^HD-\d{2}-[2-9A-HJKMNP-TV-Z]{4}$/);
    await page.getByLabel('Suche (Name, Boot, E-Mail oder Buchungsnummer)').fill(bookingNumber.toLowerCase());
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page.getByTestId('orders-total')).toHaveText('1 Bestellung · Seite 1 von 1');
    await expect(row).toContainText(bookingNumber);
    await row.getByRole('link', { name: `Wanda Walk ${run}` }).click();
    await expect(page).toHaveURL(new RegExp(`/account/admin/orders/${orderId}$`));
    await expect(page.getByTestId('booking-number')).toHaveText(`Buchungsnummer ${bookingNumber}`);

    // 3. Move: the list holds only fitting free berths; a berth taken meanwhile is refused clearly.
    const move = page.getByRole('region', { name: 'Umlegen' });
    const select = move.getByLabel('Neuer Liegeplatz');
    await expect(select.locator('option').nth(2)).toBeAttached();
    expect(await seriousViolations(page)).toEqual([]);
    const options = await select
      .locator('option')
      .evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? '' })));
    const targets = options.filter((o) => o.value);
    expect(targets.map((o) => o.text)).not.toContainEqual(expect.stringMatching(new RegExp(`^${firstPlace} `)));
    const taken = targets[0]!;
    await select.selectOption(taken.value);
    // The confirmation is open when another desk takes the berth: the live list drops it (the
    // page's realtime refresh), the open dialog still confirms the berth chosen, the database refuses.
    await move.getByRole('button', { name: 'Umlegen' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Buchung umlegen?' })).toBeVisible();
    const blocker = await rpc<{ id: string }>(
      'staff_create_booking',
      {
        p_place_id: taken.value,
        p_kind: 'overnight',
        p_arrival: arrival,
        p_departure: departure,
        p_boat: { name: `Blocker ${run}`, length: 5, width: 2 },
        p_person: { first_name: 'Bea', last_name: 'Block' },
      },
      token,
    );
    expect(blocker.status, JSON.stringify(blocker.data)).toBe(200);
    await confirmDialog(page, 'Umlegen');
    await expect(page.getByRole('alert')).toHaveText(
      'Der Liegeplatz ist in diesem Zeitraum schon belegt. Bitte einen anderen Liegeplatz wählen.',
    );
    await expect(page.getByTestId('order-place')).toHaveText(firstPlace);
    // The refreshed list no longer offers the taken berth.
    await expect(select.locator(`option[value="${taken.value}"]`)).toHaveCount(0);
    const target = (
      await select
        .locator('option')
        .evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? '' })))
    ).find((o) => o.value)!;
    const targetName = target.text.split(' (')[0]!;
    await select.selectOption(target.value);
    const movedSince = new Date(Date.now() - 1000).toISOString();
    await move.getByRole('button', { name: 'Umlegen' }).click();
    await confirmDialog(page, 'Umlegen');
    await expect(page.getByRole('status').filter({ hasText: 'umgelegt' })).toHaveText(`Auf Liegeplatz ${targetName} umgelegt.`);
    // The guest is told, in German, with the calendar entry updated (same UID, next SEQUENCE);
    // the order page lists what was sent.
    const changed = await waitForMail(email, movedSince, /^Buchung geändert: Liegeplatz /);
    expect(changed.subject).toContain(`Liegeplatz ${targetName}, `);
    expect(changed.text).toContain(`(bisher: ${firstPlace})`);
    const ics = Buffer.from(changed.attachments!.find((a) => a.filename.endsWith('.ics'))!.content, 'base64').toString('utf8');
    expect(ics).toContain(`UID:${orderId}@hafen-duesseldorf.de`);
    expect(ics).toContain('SEQUENCE:1');
    expect(ics).toContain('METHOD:PUBLISH');
    await expect(page.getByRole('list', { name: 'E-Mails an den Gast' })).toContainText('Änderung · Buchung geändert: Liegeplatz');
    await expect(page.getByRole('list', { name: 'E-Mails an den Gast' })).toContainText('Buchungsbestätigung · ');
    await expect(page.getByTestId('order-place')).toHaveText(targetName);
    await expect(page.getByRole('region', { name: 'Verlauf' })).toContainText(`Umgelegt: Liegeplatz ${firstPlace} → ${targetName}`);
    const moved = await rest<{ place_id: string }[]>(`place_statuses?order_id=eq.${orderId}&cancelled=eq.false&select=place_id`, token);
    expect(moved.data).toEqual([{ place_id: target.value }]);

    // 4. A note, then the payment at the desk (the payments panel): the invoice is issued.
    const notes = page.getByRole('form', { name: 'Notiz hinzufügen' });
    await notes.getByRole('button', { name: 'Notiz speichern' }).click();
    await expect(notes.getByText('Pflichtfeld')).toBeVisible();
    await notes.getByLabel('Neue Notiz (nur für das Hafenteam)').fill('Zahlt bar im Büro');
    await notes.getByRole('button', { name: 'Notiz speichern' }).click();
    await expect(page.getByRole('region', { name: 'Notizen des Hafenteams' }).getByText('Zahlt bar im Büro')).toBeVisible();
    // The dialog asks how the money was taken; the amount is the outstanding one.
    const price = (await rest<{ price_cents: number }[]>(`orders?id=eq.${orderId}&select=price_cents`, token)).data[0]!.price_cents;
    const payments = page.getByRole('region', { name: 'Zahlungen', exact: true });
    await payments.getByRole('button', { name: 'Zahlung erfassen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Zahlung erfassen' });
    await dialog.getByRole('radio', { name: 'Kartenterminal' }).click();
    await dialog.getByRole('button', { name: 'Zahlung erfassen' }).click();
    await expect(payments.getByRole('status')).toHaveText(`Zahlung von ${euro(price, 'de')} (Kartenterminal) erfasst.`);
    await expect(page.getByTestId('payment-status')).toHaveText('Bezahlt');
    const ledger = await rest<{ kind: string; method: string; amount_cents: number }[]>(
      `payments?order_id=eq.${orderId}&select=kind,method,amount_cents`,
      token,
    );
    expect(ledger.data).toEqual([{ kind: 'payment', method: 'card_terminal', amount_cents: price }]);
    await expect(page.getByRole('region', { name: 'Verlauf' })).toContainText(`Zahlung erfasst: ${euro(price, 'de')} (Kartenterminal)`);
    const invoice = (
      await rest<{ invoice_number: string; net_cents: number; vat_cents: number; gross_cents: number }[]>(
        `invoices?order_id=eq.${orderId}&select=invoice_number,net_cents,vat_cents,gross_cents`,
        token,
      )
    ).data[0]!;
    expect(invoice.invoice_number).toMatch(/^RE-\d{4}-\d{5}$/);
    expect(invoice.net_cents + invoice.vat_cents).toBe(invoice.gross_cents);
    expect(invoice.vat_cents).toBe(Math.round((invoice.net_cents * 19) / 100));
    await expect(page.getByTestId('invoice-number')).toHaveText(invoice.invoice_number);

    // 5. The printable invoice, German: number, issuer with VAT id, net / 19 % VAT / gross to the cent.
    await page.getByRole('link', { name: 'Rechnung drucken' }).click();
    await expect(page).toHaveURL(new RegExp(`/account/admin/orders/${orderId}/invoice$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${invoice.invoice_number}`);
    const sheet = page.locator('#invoice-sheet');
    await expect(sheet.getByTestId('invoice-number')).toHaveText(invoice.invoice_number);
    await expect(sheet.getByTestId('invoice-net')).toHaveText(euro(invoice.net_cents, 'de'));
    await expect(sheet.getByTestId('invoice-vat')).toHaveText(euro(invoice.vat_cents, 'de'));
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(invoice.gross_cents, 'de'));
    await expect(sheet.getByTestId('invoice-vat-id')).toHaveText('DE000000000');
    expect(await seriousViolations(page)).toEqual([]);
    await expect(sheet.getByLabel('Rechnungssteller')).toContainText('Speditionstraße 25');
    await expect(sheet.getByLabel('Rechnungsempfänger')).toContainText(`Wanda Walk ${run}`);
    await expect(sheet.getByLabel('Rechnungsempfänger')).toContainText('40213 Düsseldorf');
    await expect(sheet).toContainText('zzgl. 19 % USt.');
    await expect(sheet).toContainText(`Liegegebühr Liegeplatz ${targetName}`);
    await expect(sheet.getByTestId('invoice-service')).toContainText('–');
    // Printing shows the sheet alone.
    await page.emulateMedia({ media: 'print' });
    await expect(sheet.getByTestId('invoice-gross')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Drucken' })).toBeHidden();
    await expect(page.getByRole('banner').first()).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    // English.
    await page.goto(`/en/account/admin/orders/${orderId}/invoice`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Invoice ${invoice.invoice_number}`);
    await expect(sheet.getByTestId('invoice-gross')).toHaveText(euro(invoice.gross_cents, 'en'));
    await expect(sheet.getByTestId('invoice-net')).toHaveText(euro(invoice.net_cents, 'en'));
    await expect(sheet.getByTestId('invoice-vat')).toHaveText(euro(invoice.vat_cents, 'en'));
    await expect(sheet).toContainText('plus 19 % VAT');
    await expect(sheet).toContainText('Date of service');
    expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('rpc/move_booking'))).toEqual([]);
  });

  test('cancelling asks first and frees the berth', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const arrival = berlinDay(34);
    const departure = berlinDay(35);
    const booked = await bookViaApi(token, `Storno ${run}`, arrival, departure);
    await page.goto(`/account/admin/orders/${booked.id}`);
    await page.getByRole('button', { name: 'Stornieren' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Abbrechen' }).click();
    await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Stornieren' }).click();
    await confirmDialog(page, 'Stornieren');
    await expect(page.getByRole('status').filter({ hasText: 'Storniert;' })).toHaveText('Storniert; der Liegeplatz ist wieder frei.');
    await expect(page.getByText('Storniert', { exact: true })).toBeVisible();
    const statuses = await rest<{ cancelled: boolean }[]>(`place_statuses?order_id=eq.${booked.id}&select=cancelled`, token);
    expect(statuses.data).toEqual([{ cancelled: true }]);
    await expect(page.getByRole('region', { name: 'Umlegen' })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  for (const locale of ['de', 'en'] as const) {
    if (journeyIn(locale, 'de'))
      test(`staff change a stay's dates on the order page: the database's price, the form's and the database's refusals (${locale})`, async ({
        page,
        consoleErrors,
      }) => {
        const w =
          locale === 'de'
            ? {
                section: 'Zeitraum ändern',
                arrival: 'Anreise',
                departure: 'Abreise',
                confirm: 'Verschieben',
                order: 'Die Abreise muss nach der Anreise liegen',
                taken: 'Der Liegeplatz ist in diesem Zeitraum schon belegt.',
                done: 'Verschoben: ',
                history: 'Verschoben: ',
              }
            : {
                section: 'Change dates',
                arrival: 'Arrival',
                departure: 'Departure',
                confirm: 'Change dates',
                order: 'Departure must be after arrival',
                taken: 'The berth is already taken in this period.',
                done: 'Dates changed: ',
                history: 'Dates changed: ',
              };
        const base = locale === 'de' ? 140 : 160;
        const token = await staffToken();
        // The stay (2 nights) and, on the same berth, another stay three days after its departure.
        const booked = await bookViaApi(token, `Dates ${locale} ${run}`, berlinDay(base), berlinDay(base + 2));
        const placeId = (await rest<{ place_id: string }[]>(`orders?id=eq.${booked.id}&select=place_id`, token)).data[0]!.place_id;
        const other = await rpc(
          'staff_create_booking',
          {
            p_place_id: placeId,
            p_kind: 'overnight',
            p_arrival: berlinDay(base + 5),
            p_departure: berlinDay(base + 7),
            p_boat: { name: `Next ${run}`, length: 5, width: 2 },
            p_person: { first_name: 'Next', last_name: `Gast ${run}` },
          },
          token,
        );
        expect(other.status, JSON.stringify(other.data)).toBe(200);
        const quote = await rpc<{ gross_cents: number }>(
          'quote_booking',
          { p_kind: 'overnight', p_arrival: berlinDay(base), p_departure: berlinDay(base + 4), p_boat_length: 5 },
          token,
        );

        await page.goto(`${locale === 'en' ? '/en' : ''}/account/admin/orders/${booked.id}`);
        const section = page.getByRole('region', { name: w.section });
        const arrival = section.getByLabel(w.arrival, { exact: true });
        const departure = section.getByLabel(w.departure, { exact: true });
        await expectDate(arrival, berlinDay(base));
        await expectDate(departure, berlinDay(base + 2));
        const button = section.getByRole('button', { name: w.section });
        await expect(button).toBeDisabled();

        // The form: a departure on the arrival day is caught before anything is asked.
        await fillDate(departure, berlinDay(base));
        await expect(section.getByText(w.order)).toBeVisible();
        await expect(button).toBeDisabled();

        // Into the other stay's nights: the dates are fine (a price), the berth refuses on confirming.
        await fillDate(departure, berlinDay(base + 6));
        await expect(section.locator('[data-price]')).toBeVisible();
        await button.click();
        await page.getByRole('alertdialog').getByRole('button', { name: w.confirm, exact: true }).click();
        await expect(page.getByRole('alert').filter({ hasText: w.taken })).toBeVisible();
        expect((await rest<{ ends_at: string }[]>(`orders?id=eq.${booked.id}&select=ends_at`, token)).data[0]!.ends_at.slice(0, 10)).toBe(
          berlinDay(base + 2),
        );

        // Two nights longer: the database's price for the new dates, then the change.
        await fillDate(departure, berlinDay(base + 4));
        await expect(section.locator('[data-price]')).toHaveText(euro(quote.data.gross_cents, locale));
        await expect(section).toContainText(locale === 'de' ? '4 Nächte' : '4 nights');
        await button.click();
        const dialog = page.getByRole('alertdialog');
        await expect(dialog).toContainText(euro(quote.data.gross_cents, locale));
        await dialog.getByRole('button', { name: w.confirm, exact: true }).click();
        await expect(page.getByRole('status').filter({ hasText: w.done })).toBeVisible();
        const order = (
          await rest<{ ends_at: string; price_cents: number }[]>(`orders?id=eq.${booked.id}&select=ends_at,price_cents`, token)
        ).data[0]!;
        expect(order.price_cents).toBe(quote.data.gross_cents);
        expect(order.ends_at.slice(0, 10)).toBe(berlinDay(base + 4));
        // The form starts from the new dates; the history names the change.
        await expectDate(departure, berlinDay(base + 4));
        await expect(page.getByRole('region', { name: locale === 'de' ? 'Verlauf' : 'History' })).toContainText(w.history);
        expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('rpc/reschedule_booking'))).toEqual([]);
      });
  }

  test('staff check a guest in on the arrival day (en): the reservation becomes rent', async ({ page, consoleErrors }) => {
    const token = await staffToken();
    const booked = await bookViaApi(token, `Arrival ${run}`, berlinDay(0), berlinDay(1));
    await page.goto(`/en/account/admin/orders/${booked.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Booking Api Gast ${run}`);
    await page.getByRole('button', { name: 'Check in' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Checked in.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check in' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'History' })).toContainText('Status: Confirmed → Checked in');
    const statuses = await rest<{ type: string }[]>(`place_statuses?order_id=eq.${booked.id}&cancelled=eq.false&select=type`, token);
    expect(statuses.data).toEqual([{ type: 'rent' }]);
    expect(consoleErrors).toEqual([]);
  });

  test('list filters and paging live in the URL and survive a reload (de + en)', async ({ page, consoleErrors }) => {
    test.setTimeout(90_000);
    const token = await staffToken();
    const prefix = `Seite${run}`;
    const day = berlinDay(100);
    const next = berlinDay(101);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) ids.push((await bookViaApi(token, `${prefix} ${i}`, day, next)).id);
    const cancelled = await rpc('cancel_booking', { p_order_id: ids[3] }, token);
    expect(cancelled.status).toBe(200);

    await page.goto(`/account/admin/orders?q=${prefix}&from=${day}&to=${day}`);
    await expect(page.getByTestId('orders-total')).toHaveText('27 Bestellungen · Seite 1 von 2');
    await expect(page.locator('tbody tr')).toHaveCount(25);
    // Newest first: the last booked comes first.
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-order', ids[26]!);
    await page.getByRole('button', { name: 'Nächste Seite' }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(page.locator('tbody tr')).toHaveCount(2);
    await expect(page.locator('tbody tr').last()).toHaveAttribute('data-order', ids[0]!);
    await page.reload();
    await expect(page.getByTestId('orders-total')).toHaveText('27 Bestellungen · Seite 2 von 2');
    await expect(page.locator('tbody tr')).toHaveCount(2);
    await expect(page.getByLabel('Suche (Name, Boot, E-Mail oder Buchungsnummer)')).toHaveValue(prefix);
    await expectDate(page.getByLabel('Aufenthalt von'), day);

    // A filter resets the page; status and kind stand in the URL too.
    await page.getByLabel('Status').selectOption('cancelled');
    await expect(page).toHaveURL(/[?&]status=cancelled/);
    await expect(page).not.toHaveURL(/[?&]page=/);
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-order', ids[3]!);
    await page.getByLabel('Art').selectOption('day');
    await expect(page).toHaveURL(/[?&]kind=day/);
    await expect(page.getByTestId('orders-total')).toHaveText('Keine Bestellungen gefunden.');
    await page.reload();
    await expect(page.getByLabel('Status')).toHaveValue('cancelled');
    await expect(page.getByLabel('Art')).toHaveValue('day');
    await expect(page.getByTestId('orders-total')).toHaveText('Keine Bestellungen gefunden.');
    // A date range elsewhere finds none of them.
    await page.goto(`/account/admin/orders?q=${prefix}&from=${berlinDay(102)}`);
    await expect(page.getByTestId('orders-total')).toHaveText('Keine Bestellungen gefunden.');

    // English, and malformed params are dropped instead of failing.
    await page.goto(`/en/account/admin/orders?q=${prefix}&page=2&status=bogus&from=not-a-date`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Orders');
    await expect(page.getByTestId('orders-total')).toHaveText('27 orders · page 2 of 2');
    await expect(page.getByRole('button', { name: 'Previous page' })).toBeEnabled();
    await page.goto(`/en/account/admin/orders?q=${prefix}&page=9`);
    await expect(page.getByTestId('orders-total')).toHaveText('27 orders; there is no page 9 (only 2).');
    await page.getByRole('button', { name: 'To the first page' }).click();
    await expect(page.getByTestId('orders-total')).toHaveText('27 orders · page 1 of 2');
    await expect(page).not.toHaveURL(/[?&]page=/);
    expect(consoleErrors).toEqual([]);
  });

  test('the order page keeps up while other desks book: a move shows although events arrive every few milliseconds', async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    const token = await staffToken();
    const day = berlinDay(103);
    const next = berlinDay(104);
    const order = await bookViaApi(token, `Sturm ${run}`, day, next);
    await page.goto(`/account/admin/orders/${order.id}`);
    await expect(page.getByTestId('order-place')).toHaveText(order.place);
    const select = page.getByRole('region', { name: 'Umlegen' }).getByLabel('Neuer Liegeplatz');
    await expect(select.locator('option').nth(1)).toBeAttached();
    const target = (
      await select
        .locator('option')
        .evaluateAll((els) => els.map((e) => ({ value: (e as HTMLOptionElement).value, text: e.textContent ?? '' })))
    ).find((o) => o.value)!;
    const targetName = target.text.split(' (')[0]!;

    // Another desk books and cancels on another day without pause: every call is an INSERT and
    // UPDATE event the page receives. Each used to restart (and cancel) the page's refresh.
    let storming = true;
    let events = 0;
    const storm = (async () => {
      while (storming) {
        const b = await bookViaApi(token, `Sturm ${run} ${events}`, berlinDay(105), berlinDay(106));
        expect((await rpc('cancel_booking', { p_order_id: b.id }, token)).status).toBe(200);
        events += 2;
      }
    })();
    try {
      await expect.poll(() => events).toBeGreaterThan(6);
      await select.selectOption(target.value);
      await page.getByRole('region', { name: 'Umlegen' }).getByRole('button', { name: 'Umlegen' }).click();
      await confirmDialog(page, 'Umlegen');
      await expect(page.getByRole('status').filter({ hasText: 'umgelegt' })).toHaveText(`Auf Liegeplatz ${targetName} umgelegt.`);
      await expect(page.getByTestId('order-place')).toHaveText(targetName);
      await expect(page.getByRole('region', { name: 'Verlauf' })).toContainText(`Umgelegt: Liegeplatz ${order.place} → ${targetName}`);
    } finally {
      storming = false;
      await storm;
    }
    expect(consoleErrors).toEqual([]);
  });

  test('an unknown order id shows a clear page, not an error', async ({ page, consoleErrors }) => {
    await page.goto('/account/admin/orders/kein-auftrag');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buchung nicht gefunden');
    await page.goto('/en/account/admin/orders/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Booking not found');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('orders desk is staff only', () => {
  test.use({ persona: 'customer' });

  test('a customer gets the 404 page for the order pages and the API refuses the staff functions', async ({ page }) => {
    for (const path of [
      '/account/admin/orders',
      '/account/admin/orders/new',
      '/account/admin/orders/00000000-0000-4000-8000-000000000000/invoice',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
      await expect(page.locator('table')).toHaveCount(0);
    }
    const token = await personaToken(personas.customer.email, personas.customer.password);
    const someOrder = '00000000-0000-4000-8000-000000000000';
    const calls: [string, Record<string, unknown>][] = [
      ['staff_orders', {}],
      ['order_move_targets', { p_order_id: someOrder }],
      ['add_order_note', { p_order_id: someOrder, p_body: 'x' }],
      ['move_booking', { p_order_id: someOrder, p_place_id: someOrder }],
      ['record_desk_payment', { p_order_id: someOrder, p_method: 'cash' }],
      ['record_desk_refund', { p_order_id: someOrder, p_method: 'cash', p_amount_cents: 100 }],
      ['prepare_online_refund', { p_order_id: someOrder, p_amount_cents: 100, p_request_key: someOrder }],
      [
        'staff_create_booking',
        {
          p_place_id: someOrder,
          p_kind: 'overnight',
          p_arrival: berlinDay(40),
          p_departure: berlinDay(41),
          p_boat: { name: 'X', length: 5, width: 2 },
          p_person: { first_name: 'A', last_name: 'B' },
        },
      ],
    ];
    for (const [name, body] of calls) {
      const res = await rpc<{ message: string }>(name, body, token);
      expect(res.status, name).toBe(403);
      expect(res.data.message, name).toBe('staff_only');
    }
    const notes = await rest<unknown[]>('order_notes?select=id', token);
    expect(notes).toEqual({ status: 200, data: [] });
    const events = await rest<unknown[]>('order_events?select=id', token);
    expect(events).toEqual({ status: 200, data: [] });
    const write = await rest('order_notes', token, { method: 'POST', body: { order_id: someOrder, body: 'x' } });
    expect([401, 403]).toContain(write.status);
  });

  test('bad input to the staff functions is a 4xx with a reason, never a 500', async () => {
    const token = await staffToken();
    const bad = await rpc<{ message: string }>('staff_orders', { p_limit: 1000 }, token);
    expect(bad.status).toBe(400);
    expect(bad.data.message).toBe('invalid_paging');
    const note = await rpc<{ message: string }>('add_order_note', { p_order_id: 'not-a-uuid', p_body: 'x' }, token);
    expect(note.status).toBeGreaterThanOrEqual(400);
    expect(note.status).toBeLessThan(500);
    const empty = await rpc<{ message: string }>(
      'add_order_note',
      { p_order_id: '00000000-0000-4000-8000-000000000000', p_body: '  ' },
      token,
    );
    expect(empty.status).toBe(400);
    expect(empty.data.message).toBe('invalid_note');
    const method = await rpc<{ message: string }>(
      'record_desk_payment',
      { p_order_id: '00000000-0000-4000-8000-000000000000', p_method: 'online' },
      token,
    );
    expect(method.status).toBe(400);
    expect(method.data.message).toBe('invalid_payment_method');
    const unknown = await rpc<{ message: string }>(
      'record_desk_payment',
      { p_order_id: '00000000-0000-4000-8000-000000000000', p_method: 'cheque' },
      token,
    );
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
    const amount = await rpc<{ message: string }>(
      'record_desk_refund',
      { p_order_id: '00000000-0000-4000-8000-000000000000', p_method: 'cash', p_amount_cents: -5 },
      token,
    );
    expect(amount.status).toBe(400);
    expect(amount.data.message).toBe('invalid_amount');
  });
});
