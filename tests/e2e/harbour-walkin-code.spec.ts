/**
 * Walk-in booking with a sale code (issue 11 leftover): the guest step's price is quote_booking
 * with the applied code, and the order staff_create_booking stores costs exactly what the
 * preview showed, to the cent.
 */
import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { personas } from '../helpers/personas.ts';
import { apiUrl, berlinDay, chooseFirstBerth, euro, fillBerthData, personaToken, quote } from './booking-helpers.ts';

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

test.describe('walk-in with a sale code', () => {
  test.use({ persona: 'harbour' });

  test('the preview applies the code as the database does; the stored price equals it (de)', async ({ page, consoleErrors }) => {
    const token = await personaToken(personas.harbour.email, personas.harbour.password);
    const arrival = berlinDay(50);
    const departure = berlinDay(53);
    const params = { p_kind: 'overnight', p_arrival: arrival, p_departure: departure, p_boat_length: 9.4 };
    const plain = await quote(params, token);
    const withCode = await quote({ ...params, p_sale_code: 'RHEIN5' }, token);
    expect(withCode.sale_code).toBe('RHEIN5');
    expect(withCode.gross_cents).toBeLessThan(plain.gross_cents);

    await page.goto('/account/admin/orders/new');
    await fillBerthData(page, 'de', { arrival, departure, length: '9,4', width: '3,2', boat: `Rabatt ${run}` });
    await chooseFirstBerth(page, 'de');
    const guest = page.getByRole('form', { name: 'Gast' });
    await expect(guest.getByTestId('price-gross')).toHaveText(euro(plain.gross_cents, 'de'));
    await guest.getByLabel('Vorname').fill('Rudi');
    await guest.getByLabel('Nachname').fill(`Rabatt ${run}`);

    // A wrong code is named and changes nothing.
    await guest.getByLabel('Aktionscode (optional)').fill('GIBTSNICHT');
    await guest.getByRole('button', { name: 'Einlösen' }).click();
    await expect(guest.getByRole('alert')).toHaveText('Dieser Aktionscode ist nicht gültig.');
    await expect(guest.getByTestId('price-gross')).toHaveText(euro(plain.gross_cents, 'de'));

    // A code typed but not applied: the first "book" applies it and shows the new price, no order yet.
    await guest.getByLabel('Aktionscode (optional)').fill('rhein5');
    await guest.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(guest.getByText('Aktionscode RHEIN5 ist berücksichtigt.')).toBeVisible();
    await expect(guest.getByTestId('price-gross')).toHaveText(euro(withCode.gross_cents, 'de'));
    await expect(guest.getByText('RHEIN5', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/account\/admin\/orders\/new$/);
    const shown = await guest.getByTestId('price-gross').textContent();

    await guest.getByRole('button', { name: 'Verbindlich buchen' }).click();
    await expect(page).toHaveURL(/\/account\/admin\/orders\/[0-9a-f-]{36}$/);
    const orderId = page.url().split('/').pop()!;
    await expect(page.getByRole('region', { name: 'Preis' }).getByTestId('price-gross')).toHaveText(shown!);

    const res = await fetch(`${apiUrl}/rest/v1/orders?id=eq.${orderId}&select=price_cents,sale_code,status`, {
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}` },
    });
    const [order] = (await res.json()) as { price_cents: number; sale_code: string; status: string }[];
    expect(order).toEqual({ price_cents: withCode.gross_cents, sale_code: 'RHEIN5', status: 'confirmed' });
    expect(euro(order!.price_cents, 'de')).toBe(shown);
    expect(consoleErrors).toEqual([]);
  });
});
