import { expect as baseExpect, journeyIn, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe.ts';
import { clientAs, pngFile } from './admin-content-helpers.ts';
import { fillDate } from '../helpers/dates';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

test.describe('admin settings', () => {
  test.use({ persona: 'admin' });

  test('an admin adds, edits and deletes a fair period, and changes the wifi name that staff then read through harbour_access()', async ({
    page,
    consoleErrors,
  }) => {
    const name = `Caravan Salon ${Date.now().toString(36)}`;
    await page.goto('/de/account/admin/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Einstellungen');
    const fairs = page.getByRole('region', { name: 'Messezeiträume' });
    await fairs.getByRole('button', { name: 'Messezeitraum hinzufügen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Messezeitraum hinzufügen' });
    await dialog.getByLabel('Name (Deutsch)').fill(name);
    await fillDate(dialog.getByLabel('Erster Messetag'), '2031-08-29');
    await fillDate(dialog.getByLabel('Letzter Messetag'), '2031-08-20');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByText('Das Ende muss nach dem Beginn liegen')).toBeVisible();
    await fillDate(dialog.getByLabel('Letzter Messetag'), '2031-09-07');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog).toHaveCount(0);
    const row = fairs.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('29. Aug. 2031');

    await row.getByRole('button', { name: `${name} bearbeiten` }).click();
    const edit = page.getByRole('dialog', { name: 'Messezeitraum bearbeiten' });
    await edit.getByLabel('Name (Englisch, optional)').fill('Caravan Salon EN');
    await fillDate(edit.getByLabel('Letzter Messetag'), '2031-09-06');
    await edit.getByRole('button', { name: 'Speichern' }).click();
    await expect(row).toContainText('6. Sep. 2031');
    // Everyone reads fair periods (the booking offers them).
    const db = await clientAs('admin');
    expect((await db.from('fair_periods').select('name_en, starts_on, ends_on').eq('name', name).single()).data).toEqual({
      name_en: 'Caravan Salon EN',
      starts_on: '2031-08-29',
      ends_on: '2031-09-06',
    });

    await row.getByRole('button', { name: `${name} löschen` }).click();
    await page.getByRole('alertdialog', { name: 'Messezeitraum löschen' }).getByRole('button', { name: 'Löschen' }).click();
    // Closed once the database has answered; while it is open the rows are hidden from the accessibility tree.
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(row).toHaveCount(0);

    // Door code and wifi: the form shows the stored values; a change reaches staff at once.
    const access = page.getByRole('form', { name: 'Türcode und WLAN' });
    await expect(access.getByLabel('Türcode')).toHaveValue('4711#');
    const ssid = await access.getByLabel('WLAN-Name (SSID)').inputValue();
    await access.getByLabel('WLAN-Name (SSID)').fill('x'.repeat(70));
    await access.getByRole('button', { name: 'Speichern' }).click();
    await expect(access.getByText('Höchstens 64 Zeichen')).toBeVisible();
    await access.getByLabel('WLAN-Name (SSID)').fill(`${ssid}-Test`);
    await access.getByRole('button', { name: 'Speichern' }).click();
    await expect(access.getByRole('status')).toHaveText('Gespeichert.');
    const staff = await clientAs('harbour');
    const seen = await staff.rpc('harbour_access');
    expect(JSON.stringify(seen.data)).toContain(`${ssid}-Test`);
    // Put it back for the other suites.
    await page.reload();
    await access.getByLabel('WLAN-Name (SSID)').fill(ssid);
    await access.getByRole('button', { name: 'Speichern' }).click();
    await expect(access.getByRole('status')).toHaveText('Gespeichert.');
    expect(consoleErrors).toEqual([]);
  });

  test('two-factor sign-in: required of both roles in the demo data; an admin signed in with the second factor switches it off and on again (de + en)', async ({
    page,
    consoleErrors,
  }) => {
    // Only the admins' requirement is switched here: every admin session of the suites is aal2,
    // so the moment it is off changes nothing for tests running beside this one.
    const admin = await clientAs('admin');
    const flags = async () =>
      (await admin.from('harbour_settings').select('mfa_required_admin, mfa_required_harbor').eq('id', 1).single()).data;
    await page.goto('/account/admin/settings');
    const section = page.getByRole('form', { name: 'Zwei-Faktor-Anmeldung' });
    const forAdmins = section.getByRole('checkbox', { name: 'Pflicht für Admins' });
    await expect(forAdmins).toBeChecked();
    await expect(section.getByRole('checkbox', { name: 'Pflicht für das Hafenteam' })).toBeChecked();
    await forAdmins.click();
    await section.getByRole('button', { name: 'Speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');
    await expect.poll(flags).toEqual({ mfa_required_admin: false, mfa_required_harbor: true });
    await forAdmins.click();
    await section.getByRole('button', { name: 'Speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');
    await expect.poll(flags).toEqual({ mfa_required_admin: true, mfa_required_harbor: true });
    await page.goto('/en/account/admin/settings');
    const en = page.getByRole('form', { name: 'Two-factor sign-in' });
    await expect(en.getByRole('checkbox', { name: 'Required for admins' })).toBeChecked();
    await expect(en.getByRole('checkbox', { name: 'Required for harbour staff' })).toBeChecked();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('harbour staff (not admin)', () => {
  test.use({ persona: 'harbour' });

  test('get the 404 page on every admin content page', async ({ page }) => {
    for (const path of [
      '/de/account/admin/news',
      '/de/account/admin/news/create',
      '/de/account/admin/news/00000000-0000-4000-8000-000000000000/edit',
      '/de/account/admin/users',
      '/de/account/admin/users/a0000000-0000-4000-8000-000000000003/edit',
      '/de/account/admin/sale-codes',
      '/de/account/admin/sale-codes/create',
      '/de/account/admin/sale-codes/edit',
      '/de/account/admin/settings',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('404 Nicht gefunden');
    }
    // The harbour-team pages still work.
    await page.goto('/de/account/admin/overview');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Übersicht');
  });

  test('their writes through the API are refused by the database', async () => {
    const db = await clientAs('harbour');
    const news = await db
      .from('news')
      .insert({ title: 'Staff', starts_at: new Date().toISOString(), ends_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect(news.error?.code).toBe('42501');
    expect((await db.from('news').delete().not('id', 'is', null).select('id')).data).toEqual([]);
    const code = await db.from('sale_codes').insert({ code: 'STAFF', value: 0 });
    expect(code.error?.code).toBe('42501');
    expect((await db.from('sale_codes').update({ value: 0 }).not('id', 'is', null).select('id')).data).toEqual([]);
    const fair = await db.from('fair_periods').insert({ name: 'x', starts_on: '2031-01-01', ends_on: '2031-01-02' });
    expect(fair.error?.code).toBe('42501');
    expect((await db.from('fair_periods').delete().not('id', 'is', null).select('id')).data).toEqual([]);
    expect((await db.from('harbour_settings').update({ door_code: '0000' }).eq('id', 1).select('id')).data).toEqual([]);
    expect(
      (await db.from('user_roles').update({ admin: true }).eq('user_id', 'a0000000-0000-4000-8000-000000000002').select('admin')).data,
    ).toEqual([]);
    expect(
      (await db.from('profiles').update({ active: false }).eq('id', 'a0000000-0000-4000-8000-000000000003').select('id')).data,
    ).toEqual([]);
    const save = await db.rpc('admin_save_user', {
      p_user_id: 'a0000000-0000-4000-8000-000000000002',
      p_first_name: 'Heinz',
      p_last_name: 'Poller',
      p_phone: '',
      p_company: '',
      p_street: '',
      p_postal_code: '',
      p_city: '',
      p_country: '',
      p_admin: true,
      p_harbor: true,
      p_user: true,
      p_active: true,
    });
    expect(save.error?.message).toBe('admin_only');
    expect((await db.rpc('admin_list_users', {})).error?.message).toBe('admin_only');
    const upload = await db.storage.from('news-images').upload('staff/title.png', pngFile().buffer, { contentType: 'image/png' });
    expect(upload.error).toBeTruthy();
    // And nothing changed.
    expect((await db.rpc('harbour_access')).error).toBeNull();
    const admin = await clientAs('admin');
    expect((await admin.from('user_roles').select('admin').eq('user_id', 'a0000000-0000-4000-8000-000000000002').single()).data).toEqual({
      admin: false,
    });
  });
});

test.describe('admin content pages, accessibility', () => {
  test.use({ persona: 'admin' });

  for (const locale of ['de', 'en'] as const) {
    if (journeyIn(locale, 'en'))
      test(`news, users, codes and settings pages have no serious axe violations (${locale})`, async ({ page }) => {
        for (const path of [
          'news',
          'news/create',
          'users',
          'users/a0000000-0000-4000-8000-000000000003/edit',
          'sale-codes',
          'sale-codes/create',
          'settings',
        ]) {
          await page.goto(`/${locale}/account/admin/${path}`);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          expect(await seriousViolations(page), `${locale}/${path}`).toEqual([]);
        }
      });
  }

  test('the delete confirmation dialog has no serious axe violations and Abbrechen closes it', async ({ page }) => {
    await page.goto('/de/account/admin/news');
    await page
      .getByRole('button', { name: /löschen$/ })
      .first()
      .click();
    await expect(page.getByRole('alertdialog', { name: 'News löschen' })).toBeVisible();
    expect(await seriousViolations(page), 'delete dialog').toEqual([]);
    await page.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});
