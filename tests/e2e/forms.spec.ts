import { expect, test } from '../helpers/app-test';

test('contact form shows the validation messages of spec section 5, in German and English', async ({ page }) => {
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Nachricht senden' }).click();
  const form = page.getByRole('form', { name: 'Kontaktformular' });
  await expect(form.getByText('Pflichtfeld')).toBeVisible();
  await expect(form.getByText('E-Mail wird benötigt')).toBeVisible();
  await expect(form.getByText('Nachricht wird benötigt')).toBeVisible();
  await form.getByLabel('E-Mail').fill('kapitaen@hafen');
  await form.getByLabel('Telefon (optional)').fill('abc');
  await form.getByLabel('Nachricht').fill('kurz');
  await page.getByRole('button', { name: 'Nachricht senden' }).click();
  await expect(form.getByText('E-Mail ist nicht gültig')).toBeVisible();
  await expect(form.getByText('Telefonnummer ist nicht gültig')).toBeVisible();
  await expect(form.getByText('Mindestens 10 Zeichen')).toBeVisible();

  await page.goto('/en/contact');
  await page.getByRole('button', { name: 'Send message' }).click();
  const en = page.getByRole('form', { name: 'Contact form' });
  await expect(en.getByText('E-mail is required')).toBeVisible();
  await expect(en.getByText('This field is required')).toBeVisible();
  await expect(en.getByText('Message is required')).toBeVisible();
});

test('login form validates and refuses wrong credentials with one neutral message', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Anmelden' }).last().click();
  await expect(page.getByText('E-Mail wird benötigt')).toBeVisible();
  await expect(page.getByText('Passwort wird benötigt')).toBeVisible();
});
