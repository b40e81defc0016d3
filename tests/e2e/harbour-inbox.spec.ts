import { expect, test } from '../helpers/app-test';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { apiUrl } from './booking-helpers.ts';

/** A message through the public contact form's function, as a visitor sends it. */
async function sendMessage(name: string, message: string): Promise<string> {
  const res = await fetch(`${apiUrl}/rest/v1/rpc/send_contact_message`, {
    method: 'POST',
    headers: { apikey: DEMO_ANON_KEY, authorization: `Bearer ${DEMO_ANON_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ p_name: name, p_email: `${name.replace(/\W/g, '').toLowerCase()}@example.test`, p_message: message, p_locale: 'en' }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as string;
}

test.describe('the inbox', () => {
  test.use({ persona: 'harbour' });

  test('lists open messages first, marks one done and opens it again; a new message arrives live', async ({ page, consoleErrors }) => {
    const suffix = Date.now().toString(36);
    const name = `Ina Inbox ${suffix}`;
    await sendMessage(name, 'Is the fuel station open on Sunday morning?');

    await page.goto('/account/admin/inbox');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Posteingang');
    const open = page.getByRole('region', { name: 'Offen' });
    const done = page.getByRole('region', { name: 'Erledigt' });
    const card = (region: typeof open) => region.getByRole('listitem', { name: `Nachricht – ${name}` });
    await expect(card(open)).toContainText('Is the fuel station open on Sunday morning?');
    await expect(card(open)).toContainText('schreibt Englisch');
    // Newest first: the message just sent is the first open one.
    await expect(open.getByRole('listitem').first()).toHaveAccessibleName(`Nachricht – ${name}`);

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

  test('is in English on /en', async ({ page }) => {
    await page.goto('/en/account/admin/inbox');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inbox');
    await expect(page.getByRole('region', { name: 'Open' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Done' })).toBeVisible();
  });
});
