import { expect, test } from '../helpers/app-test';
import { apiUrl, berlinDay } from './booking-helpers.ts';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { adminToken, createBerth, harbourToken, rest, tinyPng, uniqueName } from './admin-helpers.ts';

test.describe('admin: berths', () => {
  test.use({ persona: 'admin' });

  test('an admin creates a berth with an image through the confirmation dialog; it is listed and found by the booking search', async ({ page, consoleErrors }) => {
    const name = uniqueName('N');
    await page.goto('/account/admin/places/create');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stellplatz erstellen');
    await page.getByLabel('Titelbild').setInputFiles({ name: 'steg.png', mimeType: 'image/png', buffer: tinyPng });
    const form = page.getByRole('form', { name: 'Stellplatz erstellen' });
    // Bad input first: a clear message, nothing sent.
    await form.getByRole('button', { name: 'Erstellen' }).click();
    await expect(form.getByText('Pflichtfeld').first()).toBeVisible();
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Steg').fill('N');
    await form.getByLabel('Länge (m)').fill('9,5');
    await form.getByLabel('Breite (m)').fill('3,3');
    await form.getByLabel('x', { exact: true }).fill('950');
    await form.getByRole('checkbox', { name: 'Strom', exact: true }).click();
    await form.getByRole('checkbox', { name: 'Stromsäule A1' }).click();
    await form.getByRole('button', { name: 'Erstellen' }).click();

    const dialog = page.getByRole('alertdialog', { name: 'Stellplatz erstellen?' });
    // Only one coordinate: the form refuses before the dialog ever opens.
    await expect(dialog).toBeHidden();
    await expect(form.getByText('Die Position braucht genau 2 Koordinaten (x und y) oder keine.')).toBeVisible();
    await form.getByLabel('y', { exact: true }).fill('560');
    await form.getByRole('button', { name: 'Erstellen' }).click();
    await expect(dialog).toContainText(`Der Stellplatz „${name}“ wird angelegt`);
    await dialog.getByRole('button', { name: 'Erstellen' }).click();

    await expect(page).toHaveURL(/\/account\/admin\/places\/[0-9a-f-]{36}\/edit$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Stellplatz ${name} bearbeiten`);
    const img = page.getByRole('img', { name: 'Aktuelles Bild' });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2);
    const id = /places\/([0-9a-f-]{36})\/edit/.exec(page.url())![1];
    const edit = page.getByRole('form', { name: 'Stellplatz bearbeiten' });
    await expect(edit.getByRole('checkbox', { name: 'Strom', exact: true })).toBeChecked();
    await expect(edit.getByRole('checkbox', { name: 'Stromsäule A1' })).toBeChecked();
    await expect(edit.getByLabel('y', { exact: true })).toHaveValue('560');
    expect(await img.getAttribute('src')).toContain(`/place-images/places/${id}/title.jpg`);

    // The list with its search.
    await page.goto('/account/admin/places');
    await page.getByLabel('Suche').fill(name);
    const table = page.getByRole('table', { name: 'Stellplätze' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('rowheader', { name })).toBeVisible();

    // Guests find it in the booking search.
    const res = await fetch(`${apiUrl}/rest/v1/rpc/search_available_places`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ p_kind: 'overnight', p_arrival: berlinDay(40), p_departure: berlinDay(41), p_boat_length: 9.4, p_boat_width: 3.3 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { place_id: string }[]).map((p) => p.place_id)).toContain(id);
    expect(consoleErrors).toEqual([]);
  });

  test('a berth with orders cannot be deleted: the dialog says why and archives it instead; the database refuses the delete too', async ({ page }) => {
    const token = await adminToken();
    const orders = await rest(token, 'orders?select=place_id&limit=1');
    const placeId = (orders.body as { place_id: string }[])[0].place_id;
    const refused = await rest(token, `places?id=eq.${placeId}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('place_has_orders');

    await page.goto(`/account/admin/places/${placeId}/edit`);
    const name = (await page.getByRole('heading', { level: 1 }).textContent())!.replace(/^Stellplatz | bearbeiten$/g, '');
    const dialog = page.getByRole('alertdialog', { name: 'Stellplatz kann nicht gelöscht werden' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Stellplatz löschen' }).click();
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(dialog).toContainText('Ein Stellplatz mit Buchungen kann nicht gelöscht werden');
    await expect(dialog).toContainText('Sie können ihn stattdessen archivieren');
    await dialog.getByRole('button', { name: 'Archivieren' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('note')).toContainText('Dieser Stellplatz ist archiviert');

    // Hidden from the list (unless asked for) and from the public.
    await page.goto('/account/admin/places');
    await page.getByLabel('Suche').fill(name);
    await expect(page.getByRole('rowheader', { name, exact: true })).toHaveCount(0);
    await page.getByLabel('Archivierte anzeigen').click();
    await expect(page.getByRole('row', { name: new RegExp(`^${name} `) })).toContainText('archiviert');
    const anon = await fetch(`${apiUrl}/rest/v1/places?id=eq.${placeId}&select=id`, { headers: { apikey: DEMO_ANON_KEY } });
    expect(await anon.json()).toEqual([]);

    // Restored, so the other tests keep the seeded harbour.
    await page.goto(`/account/admin/places/${placeId}/edit`);
    await page.getByRole('button', { name: 'Wiederherstellen' }).click();
    await expect(page.getByRole('note')).toBeHidden();
  });

  test('a berth without orders is deleted after the confirmation', async ({ page }) => {
    const name = uniqueName('D');
    const id = await createBerth(name);
    await page.goto(`/account/admin/places/${id}/edit`);
    const dialog = page.getByRole('alertdialog', { name: 'Stellplatz löschen?' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Stellplatz löschen' }).click();
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(dialog).toContainText(`„${name}“ wird mit seinem Titelbild endgültig gelöscht.`);
    await dialog.getByRole('button', { name: 'Löschen' }).click();
    await expect(page).toHaveURL(/\/account\/admin\/places$/);
    const res = await rest(await adminToken(), `places?id=eq.${id}&select=id`);
    expect(res.body).toEqual([]);
  });

  test('English: the create page and its dialog', async ({ page }) => {
    await page.goto('/en/account/admin/places/create');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create berth');
    await expect(page.getByRole('form', { name: 'Create berth' }).getByRole('button', { name: 'Create' })).toBeVisible();
  });
});

test.describe('harbour staff and berths', () => {
  test.use({ persona: 'harbour' });

  test('staff get the 404 page on the berth and column pages, and their writes are refused', async ({ page }) => {
    for (const path of ['/account/admin/places', '/account/admin/places/create', '/account/admin/additional-places']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    }
    const token = await harbourToken();
    expect((await rest(token, 'places', { method: 'POST', body: { name: uniqueName('H') } })).status).toBe(403);
    const patched = await rest(token, 'places?name=eq.A01', { method: 'PATCH', body: { archived: true }, prefer: 'return=representation' });
    expect(patched.body).toEqual([]);
    expect((await rest(token, 'additional_places', { method: 'POST', body: { type: 'water', name: 'X', position: [1, 1] } })).status).toBe(403);
    const linked = await rest(token, 'rpc/set_place_additional_places', { method: 'POST', body: { p_place_id: '00000000-0000-4000-8000-000000000000', p_additional_place_ids: [] } });
    expect(linked.status).toBe(403);
    const assigned = await rest(token, 'rpc/assign_long_term_holder', { method: 'POST', body: { p_place_id: '00000000-0000-4000-8000-000000000000', p_starts_on: berlinDay(1), p_holder: { last_name: 'X' } } });
    expect(assigned.status).toBe(403);
  });
});
