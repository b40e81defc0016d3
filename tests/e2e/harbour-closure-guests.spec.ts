/**
 * Guests in a harbour closure (issue 43 item 2, ADR 0053 "Guests in a closure"): the gauge
 * sandbox plays a forecast over mark II, the stack's gauge job records it; every guest with a
 * night on a closed day gets one e-mail in their language (a repeated reading mails nobody again);
 * on the booking page the German guest cancels free of charge although arrival is within the
 * policy's 48 hours, and the online payment goes back to the card once; the English guest keeps
 * the stay; staff see both on the overview with what each was told and chose.
 * Afterwards the river is set back, so the other tests see an open harbour.
 */
import { expect as baseExpect, journeyIn, test } from '../helpers/app-test';
import { contextAs } from '../helpers/personas.ts';
import { apiCustomer, sessionInto } from './account-helpers.ts';
import { euro, mailUrl, personaToken } from './booking-helpers.ts';
import { normalRiver, river } from './gauge-helpers.ts';
import { bookViaApi, payViaApi, paymentStatus, rest, waitForMail } from './payment-helpers.ts';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const password = 'Hochwasser-2026!';
const guests = {
  de: { email: `hw-de-${run}@hafen.test`, first: 'Greta', last: `Flut ${run}` },
  en: { email: `hw-en-${run}@hafen.test`, first: 'Gwen', last: `Flood ${run}` },
} as const;
const subject = { de: /^Hafen wegen Hochwasser geschlossen: Ihre Buchung HD-/, en: /^Harbour closed by high water: your booking HD-/ };
type Booked = { id: string; price_cents: number; place: string; number: string; token: string };
const booked: Partial<Record<'de' | 'en', Booked>> = {};

/** Over mark II from now for three days (every forecast point at 9.30 m). */
const flood = {
  level_cm: 905,
  trend: 1,
  forecast: Array.from({ length: 36 }, (_, i) => ({ hours: (i + 1) * 2, level_cm: 930 })),
  offline: false,
};

/** The closure e-mails the catcher holds for `to`. */
async function closureMails(to: string, locale: 'de' | 'en') {
  const res = await fetch(`${mailUrl}/api/messages?to=${encodeURIComponent(to)}`);
  const list = (await res.json()) as { subject: string; text?: string }[];
  return list.filter((m) => subject[locale].test(m.subject));
}

test.beforeAll(async () => {
  // Two guests with accounts, one German, one English; each books tomorrow night (inside the
  // policy's 48 hours: without the closure half would be kept) and pays online.
  for (const locale of ['de', 'en'] as const) {
    const g = guests[locale];
    await apiCustomer(g.email, password, { locale, first_name: g.first, last_name: g.last });
    const token = await personaToken(g.email, password);
    const order = await bookViaApi(token, { boat: `Arche ${locale} ${run}`, day: 1, last: g.last });
    await payViaApi(order.id, token);
    const number = (await rest<{ booking_number: string }[]>(`rest/v1/orders?id=eq.${order.id}&select=booking_number`, token)).data[0]!
      .booking_number;
    booked[locale] = { ...order, number, token };
  }
});

test.afterAll(async () => {
  await river(normalRiver);
});

test('a forecast over mark II mails each affected guest once, in their language', async () => {
  const since = new Date(Date.now() - 1000).toISOString();
  await river(flood);
  const de = await waitForMail(guests.de.email, since, subject.de);
  expect(de.subject).toBe(`Hafen wegen Hochwasser geschlossen: Ihre Buchung ${booked.de!.number}`);
  expect(de.text).toContain('kostenlos stornieren');
  expect(de.text).toContain(`/order/${booked.de!.id}`);
  const en = await waitForMail(guests.en.email, since, subject.en);
  expect(en.subject).toBe(`Harbour closed by high water: your booking ${booked.en!.number}`);
  expect(en.text).toContain('cancel it free of charge');
  expect(en.text).toContain(`/en/order/${booked.en!.id}`);

  // The same river read again (the next quarter hour): nobody is mailed a second time.
  await river(flood);
  const staff = await personaToken('hafen@hafen.test', 'Hafen1234');
  await expect
    .poll(
      async () => (await rest<{ status: string }[]>(`rest/v1/outbox?kind=eq.harbour_closure&status=neq.sent&select=status`, staff)).data,
    )
    .toEqual([]);
  expect(await closureMails(guests.de.email, 'de')).toHaveLength(1);
  expect(await closureMails(guests.en.email, 'en')).toHaveLength(1);
});

const words = {
  de: {
    notice: 'Hafen geschlossen',
    cancel: 'Kostenlos stornieren',
    dialog: 'Buchung stornieren?',
    free: 'Der Hafen ist in Ihrem Aufenthalt wegen Hochwasser geschlossen: Sie stornieren kostenlos.',
    confirm: 'Stornieren und Erstattung veranlassen',
    outcome: 'Diese Buchung wurde am',
    list: 'Von der Hafenschließung betroffen',
    cancelled: 'E-Mail gesendet · kostenlos storniert',
  },
  en: {
    notice: 'Harbour closed',
    keep: 'Keep booking',
    kept: 'You keep the booking. If the water falls in time, nothing changes.',
    list: 'Affected by the harbour closure',
    kept_status: 'E-mail sent · keeps the booking',
  },
} as const;

for (const locale of ['de', 'en'] as const) {
  if (journeyIn(locale, 'de'))
    test(`the guest cancels free of charge from the booking page, the card payment is refunded once, staff see it (${locale})`, async ({
      page,
      browser,
      consoleErrors,
    }) => {
      const w = words.de;
      const order = booked.de!;
      await sessionInto(page, guests.de.email, password);
      await page.goto(`/de/order/${order.id}`);
      const notice = page.getByRole('region', { name: w.notice });
      await expect(notice).toContainText('Ihr Aufenthalt fällt auf diese Tage.');
      // One cancel button: the notice's.
      await expect(page.getByRole('button', { name: 'Buchung stornieren' })).toHaveCount(0);
      await notice.getByRole('button', { name: w.cancel }).click();
      const dialog = page.getByRole('alertdialog', { name: w.dialog });
      await expect(dialog).toContainText(w.free);
      await expect(dialog.getByTestId('cancel-refund-amount')).toHaveText(`Sie erhalten ${euro(order.price_cents, 'de')} zurück.`);
      await dialog.getByRole('button', { name: w.confirm }).click();
      await expect(page.getByTestId('order-outcome')).toContainText(w.outcome);
      await expect(page.getByTestId('closure-choice')).toHaveText('Die Buchung ist storniert.');
      await expect.poll(() => paymentStatus(order.id, order.token), { timeout: 30_000 }).toBe('refunded');

      // The page's refund request again (a retry after a lost answer): the same request, no second refund.
      for (let i = 0; i < 2; i++) {
        const again = await rest<{ refund_id: string | null }>('functions/v1/refund-payment', order.token, {
          method: 'POST',
          body: { cancellation_of: order.id },
        });
        expect(again.status, JSON.stringify(again.data)).toBe(200);
      }
      await page.waitForTimeout(1_000);
      const refunds = await rest<{ amount_cents: number }[]>(
        `rest/v1/payments?order_id=eq.${order.id}&kind=eq.refund&select=amount_cents`,
        order.token,
      );
      expect(refunds.data).toEqual([{ amount_cents: order.price_cents }]);
      expect(consoleErrors).toEqual([]);

      const staff = await contextAs(browser, 'harbour');
      const desk = await staff.newPage();
      await desk.goto('/de/account/admin/overview');
      const item = desk.getByRole('region', { name: w.list }).getByRole('listitem').filter({ hasText: order.number });
      // bookViaApi books in the name of Paula <last name>.
      await expect(item).toContainText(`Paula ${guests.de.last}`);
      await expect(item).toContainText(`Liegeplatz ${order.place}`);
      await expect(item).toContainText('Geschlossen: ');
      await expect(item.getByTestId('closure-stay-status')).toHaveText(w.cancelled);
      await staff.close();
    });

  if (journeyIn(locale, 'en'))
    test(`the guest keeps the stay from the booking page, staff see the affected list (${locale})`, async ({
      page,
      browser,
      consoleErrors,
    }) => {
      const w = words.en;
      const order = booked.en!;
      await sessionInto(page, guests.en.email, password);
      await page.goto(`/en/order/${order.id}`);
      const notice = page.getByRole('region', { name: w.notice });
      await expect(notice).toContainText('Your stay falls on these days.');
      await expect(notice.getByRole('button', { name: 'Cancel free of charge' })).toBeVisible();
      await notice.getByRole('button', { name: w.keep }).click();
      await expect(page.getByTestId('closure-choice')).toHaveText(w.kept);
      await expect(notice.getByRole('button', { name: w.keep })).toHaveAttribute('aria-pressed', 'true');
      expect(consoleErrors).toEqual([]);

      const staff = await contextAs(browser, 'harbour');
      const desk = await staff.newPage();
      await desk.goto('/en/account/admin/overview');
      const list = desk.getByRole('region', { name: w.list });
      const item = list.getByRole('listitem').filter({ hasText: order.number });
      await expect(item).toContainText(`Paula ${guests.en.last}`);
      await expect(item).toContainText(`Berth ${order.place}`);
      await expect(item).toContainText('Closed: ');
      await expect(item.getByTestId('closure-stay-status')).toHaveText(w.kept_status);
      await expect(list.getByRole('listitem').filter({ hasText: booked.de!.number })).toBeVisible();
      await staff.close();
    });
}
