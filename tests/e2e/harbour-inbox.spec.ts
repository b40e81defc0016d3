import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { apiUrl, formClient } from './booking-helpers.ts';
import { waitForMail } from './payment-helpers.ts';

const senderEmail = (name: string) => `${name.replace(/\W/g, '').toLowerCase()}@example.test`;

/** A message through the public contact form's function, as a visitor sends it. */
async function sendMessage(name: string, message: string, locale: 'de' | 'en' = 'en'): Promise<string> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/send_contact_message`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json', ...formClient() },
    body: JSON.stringify({ p_name: name, p_email: senderEmail(name), p_message: message, p_locale: locale }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as string;
}

test.describe('the inbox', () => {
  test.use({ persona: 'harbour' });

  test('a service request is taken on as an extra only with a booking number that exists', async ({ page, consoleErrors }) => {
    const name = `Sina Service ${Date.now().toString(36)}`;
    const res = await fetch(`${apiUrl}/rest/v1/rpc/request_service`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json', ...formClient() },
      body: JSON.stringify({
        p_service: 'ice',
        p_name: name,
        p_email: senderEmail(name),
        p_message: 'Two bags of ice, please.',
        p_locale: 'de',
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);

    await page.goto('/account/admin/inbox');
    const card = page.getByRole('region', { name: 'Offen' }).getByRole('listitem', { name: new RegExp(`^Serviceanfrage: .* – ${name}$`) });
    await card.getByRole('button', { name: 'Als Extra übernehmen' }).click();
    const form = card.getByRole('form', { name: 'Als Extra übernehmen' });
    await form.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(form.getByRole('alert')).toHaveText('Bitte die Buchungsnummer eintragen.');
    await form.getByLabel('Buchungsnummer').fill('zz-0000');
    await form.getByLabel('Menge').fill('100');
    await form.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(form.getByRole('alert')).toHaveText('Die Menge muss zwischen 1 und 99 liegen.');
    await form.getByLabel('Menge').fill('2');
    await form.getByRole('button', { name: 'Übernehmen' }).click();
    await expect(form.getByRole('alert')).toHaveText('Keine Buchung mit dieser Nummer.');
    await expect(card).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('lists open messages first, marks one done and opens it again; a new message arrives live', async ({ page, consoleErrors }) => {
    const suffix = Date.now().toString(36);
    const name = `Ina Inbox ${suffix}`;
    const earlier = `Emil Earlier ${suffix}`;
    await sendMessage(earlier, 'Where can I leave the car during my stay?');
    await sendMessage(name, 'Is the fuel station open on Sunday morning?');

    await page.goto('/account/admin/inbox');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Posteingang');
    const open = page.getByRole('region', { name: 'Offen' });
    const done = page.getByRole('region', { name: 'Erledigt' });
    const card = (region: typeof open) => region.getByRole('listitem', { name: `Nachricht – ${name}` });
    await expect(card(open)).toContainText('Is the fuel station open on Sunday morning?');
    await expect(card(open)).toContainText('schreibt Englisch');
    // Newest first (other tests may write meanwhile): the message sent last comes before the one sent earlier.
    await expect(card(open)).toBeVisible();
    const order = await open.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
    expect(order.indexOf(`Nachricht – ${name}`)).toBeLessThan(order.indexOf(`Nachricht – ${earlier}`));
    expect(order.indexOf(`Nachricht – ${name}`)).toBeGreaterThanOrEqual(0);

    await card(open).getByRole('button', { name: 'Erledigt' }).click();
    await expect(card(done)).toBeVisible();
    await expect(card(open)).toHaveCount(0);
    await expect(card(done)).toContainText('erledigt am');

    await card(done).getByRole('button', { name: 'Wieder öffnen' }).click();
    await expect(card(open)).toBeVisible();
    await expect(card(done)).toHaveCount(0);

    // Live: a message sent while the page is open shows without a reload.
    const later = `Lars Live ${suffix}`;
    await sendMessage(later, 'Can I have the boat lift on Friday please?');
    await expect(open.getByRole('listitem', { name: `Nachricht – ${later}` })).toBeVisible({ timeout: 5_000 });

    expect(await seriousViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('staff answer a message from the inbox (de): the answer reaches the sender in their language and stays on the message', async ({
    page,
    consoleErrors,
  }) => {
    const suffix = Date.now().toString(36);
    const name = `Rita Reply ${suffix}`;
    const since = new Date(Date.now() - 1000).toISOString();
    await sendMessage(name, 'Habt ihr im August noch einen Platz für 12 m?', 'de');
    await page.goto('/account/admin/inbox');
    const card = page.getByRole('region', { name: 'Offen' }).getByRole('listitem', { name: `Nachricht – ${name}` });
    await card.getByRole('button', { name: 'Antworten' }).click();
    const form = card.getByRole('form', { name: `Antwort an ${name}` });
    // An empty answer is refused in the form, in German.
    await form.getByRole('button', { name: 'Antwort senden' }).click();
    await expect(form).toContainText('Bitte eine Antwort schreiben.');
    await form.getByLabel(/Antwort \(geht per E-Mail an .*, auf Deutsch\)/).fill('Ja, A12 ist vom 3. bis 10. August frei.\nViele Grüße');
    await form.getByRole('button', { name: 'Antwort senden' }).click();
    await expect(card.getByRole('status')).toHaveText(`Antwort an ${senderEmail(name)} gesendet.`);
    const thread = card.getByRole('region', { name: 'Antworten (1)' });
    await expect(thread).toContainText('Ja, A12 ist vom 3. bis 10. August frei.');

    const mail = await waitForMail(senderEmail(name), since, /^Re: Ihre Nachricht an den Hafen Düsseldorf$/);
    expect(mail.text).toContain(`Guten Tag ${name},`);
    expect(mail.text).toContain('Ja, A12 ist vom 3. bis 10. August frei.\nViele Grüße');
    expect(mail.text).toContain('> Habt ihr im August noch einen Platz für 12 m?');
    expect(mail.html).toContain('Ja, A12 ist vom 3. bis 10. August frei.');

    // The thread is still there after a reload.
    await page.reload();
    await expect(page.getByRole('listitem', { name: `Nachricht – ${name}` }).getByRole('region', { name: 'Antworten (1)' })).toContainText(
      'Ja, A12',
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('is in English on /en', async ({ page }) => {
    await page.goto('/en/account/admin/inbox');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inbox');
    await expect(page.getByRole('region', { name: 'Open' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Done' })).toBeVisible();
    // Answering, in English: the form names the sender's language.
    const name = `Eli English ${Date.now().toString(36)}`;
    await sendMessage(name, 'Do you sell diesel at the harbour?', 'en');
    await page.reload();
    const card = page.getByRole('region', { name: 'Open' }).getByRole('listitem', { name: `Message – ${name}` });
    await card.getByRole('button', { name: 'Reply' }).click();
    await expect(card.getByLabel(/Reply \(sent by e-mail to .*, in English\)/)).toBeVisible();
    await card
      .getByRole('form', { name: `Reply to ${name}` })
      .getByRole('button', { name: 'Send reply' })
      .click();
    await expect(card).toContainText('Please write a reply.');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: 'reports/screenshots/inbox-reply-en-390.png', fullPage: true });
  });
});

/** A long-term application through the public form's function, as an applicant sends it. */
async function apply(first: string, last: string, message: string, locale: 'de' | 'en'): Promise<void> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json', ...formClient() },
    body: JSON.stringify({
      p_email: senderEmail(`${first}${last}`),
      p_first_name: first,
      p_last_name: last,
      p_boat: { name: 'Wellenreiter', length: 11.5, width: 3.6 },
      p_message: message,
      p_locale: locale,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

test.describe('answers to long-term applications', () => {
  test.use({ persona: 'admin' });

  test('an admin answers an open application from the inbox without deciding it: the applicant gets it in German, the thread stays (page in de and en)', async ({
    page,
    consoleErrors,
  }) => {
    const last = `Segel${Date.now().toString(36)}`;
    const name = `Carla ${last}`;
    const since = new Date(Date.now() - 1000).toISOString();
    await apply('Carla', last, 'Gibt es Strom am Steg?', 'de');
    await page.goto('/account/admin/inbox');
    const section = page.getByRole('region', { name: 'Offene Bewerbungen um einen Langzeitliegeplatz' });
    const card = section.getByRole('listitem', { name: `Bewerbung – ${name}` });
    await expect(card).toContainText('Boot: Wellenreiter · 11,5 × 3,6 m');
    await expect(card).toContainText('Gibt es Strom am Steg?');
    await card.getByRole('button', { name: 'Antworten' }).click();
    const form = card.getByRole('form', { name: `Antwort an ${name}` });
    await form.getByRole('button', { name: 'Antwort senden' }).click();
    await expect(form).toContainText('Bitte eine Antwort schreiben.');
    await form
      .getByLabel(/Antwort \(geht per E-Mail an .*, auf Deutsch\)/)
      .fill('Ja, 16 A an jedem Platz. Sie stehen auf Platz 3 der Warteliste.');
    await form.getByRole('button', { name: 'Antwort senden' }).click();
    await expect(card.getByRole('status')).toHaveText(`Antwort an ${senderEmail(`Carla${last}`)} gesendet.`);
    await expect(card.getByRole('region', { name: 'Antworten (1)' })).toContainText('Ja, 16 A an jedem Platz.');

    const mail = await waitForMail(
      senderEmail(`Carla${last}`),
      since,
      /^Re: Ihre Bewerbung um einen Langzeitliegeplatz im Hafen Düsseldorf$/,
    );
    expect(mail.text).toContain(`Guten Tag ${name},`);
    expect(mail.text).toContain('Sie stehen auf Platz 3 der Warteliste.');
    expect(mail.text).toContain('> Gibt es Strom am Steg?');
    await page.reload();
    await expect(page.getByRole('listitem', { name: `Bewerbung – ${name}` }).getByRole('region', { name: 'Antworten (1)' })).toContainText(
      '16 A',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/en/account/admin/inbox');
    const en = page
      .getByRole('region', { name: 'Open applications for a long-term berth' })
      .getByRole('listitem', { name: `Application – ${name}` });
    await expect(en).toContainText('Boat: Wellenreiter · 11.5 × 3.6 m');
    await expect(en).toContainText('writes German');
    await expect(en.getByRole('region', { name: 'Replies (1)' })).toBeVisible();
    if (process.env.E2E_SCREENSHOTS) {
      await en.screenshot({ path: 'reports/screenshots/inbox-applications-en-1280.png' });
      await page.setViewportSize({ width: 390, height: 844 });
      await en.screenshot({ path: 'reports/screenshots/inbox-applications-en-390.png' });
    }
    expect(consoleErrors).toEqual([]);
  });
});

test.describe("applications are the admins' part of the inbox", () => {
  test.use({ persona: 'harbour' });

  test('harbour staff see no applications in the inbox', async ({ page }) => {
    await page.goto('/account/admin/inbox');
    await expect(page.getByRole('region', { name: 'Offen' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Offene Bewerbungen um einen Langzeitliegeplatz' })).toHaveCount(0);
  });
});
