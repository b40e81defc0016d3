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

test('a contact message and a service request go through to the harbour, each answered with its thank-you', async ({ page }) => {
  const stamp = Date.now();
  await page.goto('/contact');
  const form = page.getByRole('form', { name: 'Kontaktformular' });
  await form.getByLabel('Name', { exact: true }).fill('Karla Kontakt');
  await form.getByLabel('E-Mail').fill(`kontakt-${stamp}@example.com`);
  await form.getByLabel('Nachricht').fill('Gibt es im Mai noch einen Platz für ein Wochenende?');
  await page.getByRole('button', { name: 'Nachricht senden' }).click();
  await expect(page.getByText('Danke! Ihre Nachricht ist angekommen; wir antworten so bald wie möglich.')).toBeVisible();

  await page.goto('/en/service/order');
  const request = page.getByRole('form', { name: 'Service request' });
  await request.getByLabel('Name', { exact: true }).fill('Sam Service');
  await request.getByLabel('E-mail').fill(`service-${stamp}@example.com`);
  await request.getByLabel('Preferred date').fill('12/06/2027');
  await request.getByLabel('Message').fill('Please fill up the diesel tank on Friday morning.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Thank you! The harbour team has received your request.')).toBeVisible();
});

test('login form validates and refuses wrong credentials with one neutral message', async ({ page }) => {
  await page.goto('/auth/login');
  // The form's own submit button: the page also has 'Stattdessen mit E-Mail-Code anmelden'.
  const form = page.getByRole('form', { name: 'Anmelden' });
  const submit = form.getByRole('button', { name: 'Anmelden', exact: true });
  await submit.click();
  await expect(form.getByText('E-Mail wird benötigt')).toBeVisible();
  await expect(form.getByText('Passwort wird benötigt')).toBeVisible();
  await form.getByLabel('E-Mail').fill('kapitaen@hafen');
  await submit.click();
  await expect(form.getByText('E-Mail ist nicht gültig')).toBeVisible();
  await form.getByLabel('E-Mail').fill('kunde@hafen.test');
  await form.getByLabel('Passwort').fill('Falsch123');
  await submit.click();
  await expect(form.getByRole('alert')).toHaveText('Anmeldung fehlgeschlagen. Bitte prüfen Sie E-Mail-Adresse und Passwort.');
  await expect(page).toHaveURL(/\/auth\/login/);

  await page.goto('/en/auth/login');
  const en = page.getByRole('form', { name: 'Log in' });
  await en.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(en.getByText('E-mail is required')).toBeVisible();
  await expect(en.getByText('Password is required')).toBeVisible();
});
