/**
 * The audit trail (issue 21 item 7; docs/adr/0034-audit-trail.md): an admin changes a berth
 * and finds the change on /account/admin/audit with their name and the old and new value (de
 * and en); harbour staff who are not admins get the 404 page and the database refuses them; the
 * staff order page's history names who did each step (the guest, a staff member).
 * Screenshots of both pages at 390 and 1280 px go to reports/screenshots/ (looked at by hand).
 */
import { expect as baseExpect, journeyIn, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe.ts';
import { personas } from '../helpers/personas.ts';
import { adminToken, createBerth, rest, uniqueName } from './admin-helpers.ts';
import { berlinDay, personaToken } from './booking-helpers.ts';
import { fillDate, expectDate } from '../helpers/dates';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

const shots = 'reports/screenshots';

const text = {
  de: {
    edit: 'Liegeplatz bearbeiten',
    width: 'Breite (m)',
    save: 'Speichern',
    title: 'Änderungsprotokoll',
    area: 'Bereich',
    berths: 'Liegeplätze',
    who: 'Wer (Name oder E-Mail)',
    search: 'Suchen',
    changed: 'Geändert',
    widthLabel: 'Breite',
    from: 'Von',
    to: 'Bis einschließlich',
    newWidth: '4,5',
    shown: '4 → 4,5',
  },
  en: {
    edit: 'Edit berth',
    width: 'Width (m)',
    save: 'Save',
    title: 'Audit log',
    area: 'Area',
    berths: 'Berths',
    who: 'Who (name or e-mail)',
    search: 'Search',
    changed: 'Changed',
    widthLabel: 'Width',
    from: 'From',
    to: 'Until (inclusive)',
    newWidth: '4.5',
    shown: '4 → 4.5',
  },
} as const;

test.describe('audit trail for admins', () => {
  test.use({ persona: 'admin' });

  for (const locale of ['de', 'en'] as const) {
    if (journeyIn(locale, 'de'))
      test(`an admin changes a berth and sees the change with their name, old and new value (${locale})`, async ({
        page,
        consoleErrors,
      }) => {
        const w = text[locale];
        const name = uniqueName(`AU${locale.toUpperCase()}`);
        const id = await createBerth(name);
        await page.goto(`/${locale}/account/admin/places/${id}/edit`);
        const form = page.getByRole('form', { name: w.edit });
        await form.getByLabel(w.width).fill(w.newWidth);
        await form.getByRole('button', { name: w.save }).click();
        const token = await adminToken();
        await expect.poll(async () => (await rest(token, `places?id=eq.${id}&select=width`)).body).toEqual([{ width: 4.5 }]);

        await page.goto(`/${locale}/account/admin/audit`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.title);
        await page.getByLabel(w.area).selectOption({ label: w.berths });
        await expect(page).toHaveURL(/table=public\.places/);
        await page.getByLabel(w.who).fill('Hafenmeister');
        await page.getByRole('button', { name: w.search }).click();
        await fillDate(page.getByLabel(w.from), berlinDay(0));
        await fillDate(page.getByLabel(w.to), berlinDay(0));
        // Both days stay in the URL (two quick changes), with the actor and the area.
        await expect(page).toHaveURL(new RegExp(`from=${berlinDay(0)}`));
        await expect(page).toHaveURL(new RegExp(`to=${berlinDay(0)}`));
        await expectDate(page.getByLabel(w.from), berlinDay(0));
        await expect(page).toHaveURL(/actor=Hafenmeister/);
        await expect(page).toHaveURL(/table=public\.places/);
        // Newest first: the change just made is the first entry of this berth.
        const entry = page.getByTestId('audit-entry').filter({ hasText: id }).first();
        await expect(entry).toContainText(w.changed);
        await expect(entry.getByTestId('audit-actor')).toContainText('Andrea Hafenmeister');
        await expect(entry.getByTestId('audit-actor')).toContainText(personas.admin.email);
        // Only the changed column, with old and new value; updated_at is bookkeeping, not a change.
        await expect(entry.locator('[data-column]')).toHaveCount(1);
        await expect(entry.locator('[data-column="width"]')).toContainText(w.widthLabel);
        await expect(entry.locator('[data-column="width"] dd')).toHaveText(
          new RegExp(w.shown.replace('→', '→\\s*(geändert in|changed to)?\\s*')),
        );
        // The berth's creation is there too, newest first below it.
        await expect(page.getByTestId('audit-entry').filter({ hasText: id })).toHaveCount(2);
        expect(await seriousViolations(page)).toEqual([]);

        if (locale === 'de') {
          for (const width of [390, 1280]) {
            await page.setViewportSize({ width, height: 900 });
            await page.screenshot({ path: `${shots}/audit-page-${width}.png`, fullPage: true });
          }
        }
        expect(consoleErrors).toEqual([]);
      });
  }

  test('a period without changes says there are no entries', async ({ page }) => {
    await page.goto('/de/account/admin/audit?table=public.places&from=2031-01-01&to=2031-01-02');
    await expect(page.getByTestId('audit-total')).toHaveText('Keine Einträge gefunden.');
  });
});

test.describe('audit trail for harbour staff', () => {
  test.use({ persona: 'harbour' });

  test('staff who are not admins get the 404 page (no refused request, no console error), and the database refuses them', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/de/account/admin/audit');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    const token = await personaToken(personas.harbour.email, personas.harbour.password);
    const direct = await rest(token, 'audit_log?select=id&limit=1');
    expect(direct).toEqual({ status: 200, body: [] });
    const list = await rest(token, 'rpc/admin_audit_log', { method: 'POST', body: {} });
    expect(list.status).toBe(403);
    expect(JSON.stringify(list.body)).toContain('admin_only');
    await page.goto('/en/account/admin/audit');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Not Found');
    expect(consoleErrors).toEqual([]);
  });

  for (const locale of ['de', 'en'] as const) {
    if (journeyIn(locale, 'en'))
      test(`the order history names who did each step (${locale})`, async ({ page, consoleErrors }) => {
        // A customer books (the guest of this order), staff take the money at the desk.
        const customer = await personaToken(personas.customer.email, personas.customer.password);
        const arrival = berlinDay(locale === 'de' ? 50 : 52);
        const departure = berlinDay(locale === 'de' ? 51 : 53);
        const free = await rest(customer, 'rpc/search_available_places', {
          method: 'POST',
          body: { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 5, p_boat_width: 2 },
        });
        expect(free.status).toBe(200);
        let orderId = '';
        for (const place of (free.body as { place_id: string }[]).slice(0, 10)) {
          const booked = await rest(customer, 'rpc/create_booking', {
            method: 'POST',
            body: {
              p_place_id: place.place_id,
              p_kind: 'overnight',
              p_arrival: arrival,
              p_departure: departure,
              p_boat: { name: `Verlauf ${locale}`, length: 5, width: 2 },
              p_person: { first_name: 'Klaus', last_name: 'Kunde' },
            },
          });
          if (booked.status === 200) {
            orderId = (booked.body as { id: string }).id;
            break;
          }
        }
        expect(orderId).not.toBe('');
        const staff = await personaToken(personas.harbour.email, personas.harbour.password);
        expect(
          (await rest(staff, 'rpc/record_desk_payment', { method: 'POST', body: { p_order_id: orderId, p_method: 'cash' } })).status,
        ).toBe(200);

        await page.goto(`/${locale}/account/admin/orders/${orderId}`);
        const history = page.getByRole('region', { name: locale === 'de' ? 'Verlauf' : 'History' });
        const steps = history.getByRole('listitem');
        await expect(steps.first()).toContainText(locale === 'de' ? 'Angelegt' : 'Created');
        await expect(steps.first().getByTestId('event-actor')).toHaveText(locale === 'de' ? 'Gast' : 'Guest');
        const payment = steps.filter({ hasText: locale === 'de' ? 'Zahlung erfasst' : 'Payment recorded' });
        await expect(payment.getByTestId('event-actor')).toHaveText('Heinz Poller');
        expect(await seriousViolations(page)).toEqual([]);
        if (locale === 'de') {
          for (const width of [390, 1280]) {
            await page.setViewportSize({ width, height: 900 });
            await history.scrollIntoViewIfNeeded();
            await history.screenshot({ path: `${shots}/order-history-${width}.png` });
          }
        }
        expect(consoleErrors).toEqual([]);
      });
  }
});
