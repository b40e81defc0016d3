import { expect as baseExpect, test } from '../helpers/app-test';
import { clientAs, createAccount } from './admin-content-helpers.ts';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });

const ADMIN_ID = 'a0000000-0000-4000-8000-000000000001';

test.describe('admin users', () => {
  test.use({ persona: 'admin' });

  test('an admin finds a user by search (kept in the URL), edits person fields and roles; the flags are stored', async ({
    page,
    consoleErrors,
  }) => {
    const account = await createAccount('rollen', 'Rita', 'Rollenwechsel');
    await page.goto('/de/account/admin/users');
    const table = page.getByRole('table', { name: 'Benutzer' });
    await expect(table.getByRole('columnheader').first()).toHaveText('E-Mail');
    await expect(table.getByRole('columnheader').nth(1)).toHaveText('Nachname');
    await expect(table.getByRole('columnheader').nth(2)).toHaveText('Vorname');
    await expect(page.getByText(/^Seite 1 von \d+ \(\d+ Benutzer\)$/)).toBeVisible();

    await page.getByLabel('Suche nach E-Mail oder Name').fill(account.email.slice(0, 14));
    await page.getByRole('button', { name: 'Suchen', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`\\?q=${account.email.slice(0, 14)}$`));
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row').filter({ hasText: account.email });
    await expect(row).toContainText('Rollenwechsel');
    await expect(row).toContainText('Rita');
    // Reloading keeps the search (it lives in the URL).
    await page.reload();
    await expect(page.getByLabel('Suche nach E-Mail oder Name')).toHaveValue(account.email.slice(0, 14));
    await row.getByRole('link', { name: `${account.email} bearbeiten` }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Benutzer bearbeiten');
    await expect(page.getByRole('checkbox', { name: 'Benutzer (user)' })).toBeChecked();
    await page.getByLabel('Telefon').fill('abc');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByText('Telefonnummer ist nicht gültig')).toBeVisible();
    await page.getByLabel('Telefon').fill('+49 211 555 0199');
    await page.getByLabel('Ort').fill('Neuss');
    await page.getByRole('checkbox', { name: 'Hafenteam (harbor)' }).click();
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Gespeichert.' })).toBeVisible();

    const db = await clientAs('admin');
    expect((await db.from('user_roles').select('admin, harbor, user').eq('user_id', account.id).single()).data).toEqual({
      admin: false,
      harbor: true,
      user: true,
    });
    expect((await db.from('profiles').select('phone, city, active').eq('id', account.id).single()).data).toEqual({
      phone: '+49 211 555 0199',
      city: 'Neuss',
      active: true,
    });

    // Switching the account off: the person cannot act as staff any more.
    await page.getByRole('checkbox', { name: 'Konto aktiv' }).click();
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Gespeichert.' })).toBeVisible();
    const person = await clientAs(account);
    const { error } = await person.rpc('harbour_access');
    expect(error?.code).toBe('42501');
    expect(consoleErrors).toEqual([]);
  });

  test('an admin cannot remove the own admin flag or switch the own account off: the form locks both, and the API refuses', async ({
    page,
  }) => {
    await page.goto(`/de/account/admin/users/${ADMIN_ID}/edit`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Benutzer bearbeiten');
    await expect(page.getByRole('checkbox', { name: 'Admin', exact: true })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Admin', exact: true })).toBeDisabled();
    await expect(page.getByRole('checkbox', { name: 'Konto aktiv' })).toBeDisabled();
    await expect(
      page.getByText('Ihr eigenes Konto: Die Admin-Rolle und den Aktiv-Status kann nur ein anderer Admin ändern.'),
    ).toBeVisible();
    // Saving the other fields still works.
    await page.getByRole('button', { name: 'Speichern' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Gespeichert.' })).toBeVisible();

    // The API (supabase-js, as the admin) refuses with a named error, whichever way it is tried.
    const db = await clientAs('admin');
    const roles = await db.from('user_roles').update({ admin: false }).eq('user_id', ADMIN_ID);
    expect(roles.error?.message).toBe('cannot_remove_own_admin');
    const active = await db.from('profiles').update({ active: false }).eq('id', ADMIN_ID);
    expect(active.error?.message).toBe('cannot_deactivate_self');
    const rpc = await db.rpc('admin_save_user', {
      p_user_id: ADMIN_ID,
      p_first_name: 'Andrea',
      p_last_name: 'Hafenmeister',
      p_phone: '',
      p_company: '',
      p_street: '',
      p_postal_code: '',
      p_city: '',
      p_country: '',
      p_admin: false,
      p_harbor: false,
      p_user: true,
      p_active: true,
    });
    expect(rpc.error?.message).toBe('cannot_remove_own_admin');
    expect((await db.from('user_roles').select('admin').eq('user_id', ADMIN_ID).single()).data).toEqual({ admin: true });
  });

  test('the users pages in English: paging and search live in the URL; an unknown user is a clear message', async ({ page }) => {
    await page.goto('/en/account/admin/users?page=999');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Users');
    await expect(page.getByText('No users found.')).toBeVisible();
    await page.goto('/en/account/admin/users?q=hafen.test');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByRole('columnheader').first()).toHaveText('E-mail');
    await expect(table.getByRole('row').filter({ hasText: 'admin@hafen.test' })).toBeVisible();
    await page.goto('/en/account/admin/users/00000000-0000-4000-8000-000000000000/edit');
    await expect(page.getByRole('alert')).toHaveText('This user does not exist (any more).');
  });
});
