/**
 * Accounts (issue 10), the profile page beyond person and boat: the avatar (progress, 'image
 * required', 'file too large'), password change with the registration's rules, e-mail change by
 * code, download my data and delete my account. Each test has its own fresh customer.
 */
import { readFile } from 'node:fs/promises';
import { test, expect } from '../helpers/app-test';
import { readCode, uniqueEmail } from './booking-helpers';
import { apiCustomer, passwordGrant, sessionInto, since, tinyPng } from './account-helpers';

test.setTimeout(90_000);

test('avatar (de): a text file and a too-large file are refused; an image uploads with a progress indicator', async ({ page }) => {
  const email = uniqueEmail('avatar');
  await apiCustomer(email, 'Avatar123', { locale: 'de', first_name: 'Ava', last_name: 'Tar' });
  await sessionInto(page, email, 'Avatar123');
  await page.goto('/de/account/profile');
  const file = page.getByLabel('Bild auswählen');
  await file.setInputFiles({ name: 'notiz.txt', mimeType: 'text/plain', buffer: Buffer.from('kein Bild') });
  await expect(page.getByText('Bild wird benötigt (JPEG, PNG oder WebP)')).toBeVisible();
  await file.setInputFiles({ name: 'riesig.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 1) });
  await expect(page.getByText('Datei ist zu groß (höchstens 5 MB)')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Ihr Profilbild' })).toHaveCount(0);

  // Hold the upload's answer a moment, so the progress indicator can be seen.
  await page.route('**/storage/v1/object/avatars/**', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await file.setInputFiles({ name: 'boot.png', mimeType: 'image/png', buffer: tinyPng });
  await expect(page.getByRole('progressbar', { name: 'Hochladen' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Profilbild gespeichert.' })).toBeVisible();
  await expect(page.getByText('Datei ist zu groß (höchstens 5 MB)')).toHaveCount(0);
  const img = page.getByRole('img', { name: 'Ihr Profilbild' });
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
  // Shown as Storage's signed thumbnail (render/image/sign; a 1 px image is never enlarged).
  expect(await img.getAttribute('src')).toContain('/storage/v1/render/image/sign/avatars/');
  await page.reload();
  await expect(page.getByRole('img', { name: 'Ihr Profilbild' })).toBeVisible();
});

test('password and e-mail change (en): the registration rules; the change needs the codes from both addresses', async ({ page }) => {
  const email = uniqueEmail('change-en');
  await apiCustomer(email, 'Before123', { locale: 'en', first_name: 'Chad', last_name: 'Change' });
  await sessionInto(page, email, 'Before123');
  await page.goto('/en/account/profile');

  const change = page.getByRole('button', { name: 'Change password' });
  await change.click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('New password').fill('short');
  await change.click();
  await expect(page.getByText('Password must have at least 6 characters')).toBeVisible();
  await page.getByLabel('New password').fill('nocapitals1');
  await change.click();
  await expect(page.getByText('The password needs lower and upper case letters and digits')).toBeVisible();
  await page.getByLabel('New password').fill('After1234');
  await page.getByLabel('Repeat password').fill('After12345');
  await change.click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await page.getByLabel('Repeat password').fill('After1234');
  await change.click();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  expect(await passwordGrant(email, 'After1234')).toBe(200);
  expect(await passwordGrant(email, 'Before123')).toBe(400);

  const form = page.getByRole('form', { name: 'Change e-mail address' });
  await form.getByRole('button', { name: 'Send codes' }).click();
  await expect(form.getByText('E-mail is required')).toBeVisible();
  await form.getByLabel('New e-mail address').fill(email);
  await form.getByRole('button', { name: 'Send codes' }).click();
  await expect(form.getByText('That is already your e-mail address')).toBeVisible();
  const next = uniqueEmail('changed-en');
  await form.getByLabel('New e-mail address').fill(next);
  const t0 = since();
  await form.getByRole('button', { name: 'Send codes' }).click();
  const confirm = page.getByRole('form', { name: 'Confirm the new e-mail address' });
  await confirm.getByRole('button', { name: 'Confirm the change' }).click();
  await expect(confirm.getByText('The code has 6 digits')).toHaveCount(2);
  await confirm.getByLabel(`Code from the e-mail to ${next}`).fill(await readCode(next, t0));
  await confirm.getByLabel(`Code from the e-mail to ${email}`).fill(await readCode(email, t0));
  await confirm.getByRole('button', { name: 'Confirm the change' }).click();
  await expect(page.getByText(`Currently: ${next}.`)).toBeVisible();
  await expect(page.getByText('Your e-mail address has been changed.')).toBeVisible();
  // The card now knows the new address as the current one.
  await form.getByLabel('New e-mail address').fill(next.toUpperCase());
  await form.getByRole('button', { name: 'Send codes' }).click();
  await expect(form.getByText('That is already your e-mail address')).toBeVisible();
  expect(await passwordGrant(next, 'After1234')).toBe(200);
  expect(await passwordGrant(email, 'After1234')).toBe(400);
});

test('my data (de): download as JSON; delete the account only after the confirmation', async ({ page }) => {
  const email = uniqueEmail('gdpr');
  await apiCustomer(email, 'Delete123', { locale: 'de', first_name: 'Greta', last_name: 'Gelöscht' });
  await sessionInto(page, email, 'Delete123');
  await page.goto('/de/account/profile');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Meine Daten herunterladen' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^hafen-duesseldorf-meine-daten-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(await readFile((await file.path())!, 'utf8')) as {
    user: { email: string };
    profile: { last_name: string };
    orders: unknown[];
  };
  expect(data.user.email).toBe(email);
  expect(data.profile.last_name).toBe('Gelöscht');
  expect(data.orders).toEqual([]);

  await page.getByRole('button', { name: 'Konto löschen' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Konto wirklich löschen?' });
  await expect(dialog).toContainText('Vergangene Buchungen bewahren wir ohne Ihre persönlichen Daten auf');
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await passwordGrant(email, 'Delete123')).toBe(200);

  await page.getByRole('button', { name: 'Konto löschen' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page).toHaveURL(/\/de\/start$/);
  expect(await passwordGrant(email, 'Delete123')).toBe(400);
  await page.goto('/de/account');
  await expect(page).toHaveURL(/\/de\/auth\/login/);
});

test('avatar (en): the same refusals in English', async ({ page }) => {
  const email = uniqueEmail('avatar-en');
  await apiCustomer(email, 'Avatar123', { locale: 'en', first_name: 'Ava', last_name: 'English' });
  await sessionInto(page, email, 'Avatar123');
  await page.goto('/en/account/profile');
  const file = page.getByLabel('Choose a picture');
  await file.setInputFiles({ name: 'big.webp', mimeType: 'image/webp', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 1) });
  await expect(page.getByText('File too large (at most 5 MB)')).toBeVisible();
  await file.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
  await expect(page.getByText('Image required (JPEG, PNG or WebP)')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your profile picture' })).toHaveCount(0);
});
