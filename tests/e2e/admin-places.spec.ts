import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { apiUrl, berlinDay } from './booking-helpers.ts';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { adminToken, createBerth, harbourToken, rest, tinyPng, uniqueName } from './admin-helpers.ts';

test.describe('admin: berths', () => {
  test.use({ persona: 'admin' });

  test('an admin creates a berth with an image through the confirmation dialog; it is listed and found by the booking search', async ({
    page,
    consoleErrors,
  }) => {
    // Many steps on a shared 2-core machine.
    test.setTimeout(60_000);
    const name = uniqueName('N');
    await page.goto('/account/admin/places/create');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Liegeplatz erstellen');
    await expect(page.getByRole('checkbox', { name: 'Stromsäule A1' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Titelbild').setInputFiles({ name: 'steg.png', mimeType: 'image/png', buffer: tinyPng });
    const form = page.getByRole('form', { name: 'Liegeplatz erstellen' });
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

    const dialog = page.getByRole('alertdialog', { name: 'Liegeplatz erstellen?' });
    // Only one coordinate: the form refuses before the dialog ever opens.
    await expect(dialog).toBeHidden();
    await expect(form.getByText('Die Position braucht genau 2 Koordinaten (x und y) oder keine.')).toBeVisible();
    await form.getByLabel('y', { exact: true }).fill('560');
    await form.getByRole('button', { name: 'Erstellen' }).click();
    await expect(dialog).toContainText(`Der Liegeplatz „${name}“ wird angelegt`);
    await dialog.getByRole('button', { name: 'Erstellen' }).click();

    await expect(page).toHaveURL(/\/account\/admin\/places\/[0-9a-f-]{36}\/edit$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Liegeplatz ${name} bearbeiten`);
    // The image uploaded with the berth is its first (and only) photo.
    const img = page.getByRole('region', { name: 'Fotos' }).getByRole('img', { name: 'Foto 1 von 1' });
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2);
    const id = /places\/([0-9a-f-]{36})\/edit/.exec(page.url())![1];
    const edit = page.getByRole('form', { name: 'Liegeplatz bearbeiten' });
    await expect(edit.getByRole('checkbox', { name: 'Strom', exact: true })).toBeChecked();
    await expect(edit.getByRole('checkbox', { name: 'Stromsäule A1' })).toBeChecked();
    await expect(edit.getByLabel('y', { exact: true })).toHaveValue('560');
    expect(await img.getAttribute('src')).toContain(`/place-images/places/${id}/title.jpg`);

    // The list with its search.
    await page.goto('/account/admin/places');
    await page.getByLabel('Suche').fill(name);
    const table = page.getByRole('table', { name: 'Liegeplätze' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('rowheader', { name })).toBeVisible();

    // Guests find it in the booking search.
    const res = await fetch(`${apiUrl}/rest/v1/rpc/search_available_places`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        p_kind: 'overnight',
        p_arrival: berlinDay(40),
        p_departure: berlinDay(41),
        p_boat_length: 9.4,
        p_boat_width: 3.3,
      }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { place_id: string }[]).map((p) => p.place_id)).toContain(id);
    expect(consoleErrors).toEqual([]);
  });

  test('a berth with orders cannot be deleted: the dialog says why and archives it instead; the database refuses the delete too', async ({
    page,
  }) => {
    // An own berth with one booking (made by staff), so the seeded harbour stays untouched.
    const token = await adminToken();
    const name = uniqueName('O');
    const placeId = await createBerth(name);
    const booked = await rest(token, 'rpc/staff_create_booking', {
      method: 'POST',
      body: {
        p_place_id: placeId,
        p_kind: 'overnight',
        p_arrival: berlinDay(50),
        p_departure: berlinDay(52),
        p_boat: { name: 'Archivboot', length: 9, width: 3 },
        p_person: { email: 'archiv@hafen.test', first_name: 'Anna', last_name: 'Archiv' },
      },
    });
    expect(booked.status).toBe(200);
    const refused = await rest(token, `places?id=eq.${placeId}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('place_has_orders');

    await page.goto(`/account/admin/places/${placeId}/edit`);
    const dialog = page.getByRole('alertdialog', { name: 'Liegeplatz kann nicht gelöscht werden' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Liegeplatz löschen' }).click();
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(dialog).toContainText(`Zu „${name}“ gibt es 1 Buchung. Ein Liegeplatz mit Buchungen kann nicht gelöscht werden`);
    await expect(dialog).toContainText('Sie können ihn stattdessen archivieren');
    await dialog.getByRole('button', { name: 'Archivieren' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('note')).toContainText('Dieser Liegeplatz ist archiviert');

    // Hidden from the list (unless asked for) and from the public.
    await page.goto('/account/admin/places');
    await page.getByLabel('Suche').fill(name);
    await expect(page.getByRole('rowheader', { name, exact: true })).toHaveCount(0);
    await page.getByLabel('Archivierte anzeigen').click();
    await expect(page.getByRole('row', { name: new RegExp(`^${name} `) })).toContainText('archiviert');
    const anon = await fetch(`${apiUrl}/rest/v1/places?id=eq.${placeId}&select=id`, { headers: { apikey: DEMO_ANON_KEY } });
    expect(await anon.json()).toEqual([]);

    // And back again.
    await page.goto(`/account/admin/places/${placeId}/edit`);
    await page.getByRole('button', { name: 'Wiederherstellen' }).click();
    await expect(page.getByRole('note')).toBeHidden();
  });

  test('a berth without orders is deleted after the confirmation', async ({ page }) => {
    const name = uniqueName('D');
    const id = await createBerth(name);
    await page.goto(`/account/admin/places/${id}/edit`);
    const dialog = page.getByRole('alertdialog', { name: 'Liegeplatz löschen?' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Liegeplatz löschen' }).click();
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(dialog).toContainText(`„${name}“ wird mit seinen Fotos endgültig gelöscht.`);
    await dialog.getByRole('button', { name: 'Löschen' }).click();
    await expect(page).toHaveURL(/\/account\/admin\/places$/);
    const res = await rest(await adminToken(), `places?id=eq.${id}&select=id`);
    expect(res.body).toEqual([]);
    // Its pages are gone: an unknown berth (or a malformed id) is the 404 page.
    await page.goto(`/account/admin/places/${id}/edit`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
    await page.goto('/account/admin/places/not-a-uuid/calendar');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 Nicht gefunden');
  });

  test("a berth's calendar is the harbour calendar for that berth only, a month by default", async ({ page, consoleErrors }) => {
    const token = await adminToken();
    const a01 = ((await rest(token, 'places?name=eq.A01&select=id')).body as { id: string }[])[0].id;
    await page.goto(`/account/admin/places/${a01}/calendar`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Belegungskalender');
    await expect(page.getByRole('button', { name: 'Monat' })).toHaveAttribute('aria-pressed', 'true');
    // The timeline with that berth's row only, over 30 days.
    const plan = page.getByTestId('timeline');
    await expect(plan).toHaveAttribute('data-day-count', '30');
    await expect(plan.locator('[data-place]')).toHaveCount(1);
    await expect(plan.locator(`[data-place="${a01}"]`)).toContainText('A01');
    await expect(page.locator('[data-live]')).toHaveAttribute('data-live', 'live');
    expect(consoleErrors).toEqual([]);
  });

  test('a column is created with an image (upload progress) and needs a position', async ({ page, consoleErrors }) => {
    const name = uniqueName('Wassersäule Q');
    await page.goto('/account/admin/additional-places/create');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Säule erstellen');
    const form = page.getByRole('form', { name: 'Säule erstellen' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Art').selectOption('water');
    await form.getByLabel('x', { exact: true }).fill('120');
    await form.getByRole('button', { name: 'Erstellen' }).click();
    await expect(form.getByRole('alert')).toHaveText('Position erforderlich: genau 2 Koordinaten (x 0–1000, y 0–600).');
    await form.getByLabel('y', { exact: true }).fill('700');
    await form.getByRole('button', { name: 'Erstellen' }).click();
    await expect(form.getByRole('alert')).toHaveText('Position erforderlich: genau 2 Koordinaten (x 0–1000, y 0–600).');
    await form.getByLabel('y', { exact: true }).fill('480,5');
    await page.getByLabel('Bild').setInputFiles({ name: 'saeule.png', mimeType: 'image/png', buffer: tinyPng });
    await form.getByRole('button', { name: 'Erstellen' }).click();
    await expect(page).toHaveURL(/\/additional-places\/[0-9a-f-]{36}\/edit$/);
    const img = page.getByRole('img', { name: 'Aktuelles Bild' });
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2);
    // Replacing the image shows the upload's progress.
    await page.getByLabel('Bild').setInputFiles({ name: 'saeule2.png', mimeType: 'image/png', buffer: tinyPng });
    await expect(page.getByRole('status').filter({ hasText: 'Bild hochgeladen.' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload-Fortschritt' })).toHaveAttribute('value', '1');
    // A file that is not an image is refused with a message.
    await page.getByLabel('Bild').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByRole('alert')).toHaveText('Bitte ein Bild im Format JPEG, PNG oder WebP wählen.');
    const stored = await rest(
      await adminToken(),
      `additional_places?name=eq.${encodeURIComponent(name)}&select=type,position,image_path,id`,
    );
    const row = (stored.body as { type: string; position: number[]; image_path: string; id: string }[])[0];
    expect(row).toMatchObject({ type: 'water', position: [120, 480.5], image_path: `additional-places/${row.id}/title.jpg` });
    expect(consoleErrors).toEqual([]);
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
    expect((await rest(token, 'additional_places', { method: 'POST', body: { type: 'water', name: 'X', position: [1, 1] } })).status).toBe(
      403,
    );
    const linked = await rest(token, 'rpc/set_place_additional_places', {
      method: 'POST',
      body: { p_place_id: '00000000-0000-4000-8000-000000000000', p_additional_place_ids: [] },
    });
    expect(linked.status).toBe(403);
    const assigned = await rest(token, 'rpc/assign_long_term_holder', {
      method: 'POST',
      body: { p_place_id: '00000000-0000-4000-8000-000000000000', p_starts_on: berlinDay(1), p_holder: { last_name: 'X' } },
    });
    expect(assigned.status).toBe(403);
  });
});
