/**
 * Insurance certificate and registration mark of long-term holders (issue 42 item 3, ADR 0050):
 * in German a holder sets the boat's registration mark and uploads the certificate (a wrong file
 * type is refused first, in words); in English staff see a holder without a certificate in the
 * list of who is missing one. State is set up through the API (a holder assigned by the admin).
 */
import { test, expect } from '../helpers/app-test';
import { fillDate } from '../helpers/dates';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, personaToken, uniqueEmail } from './booking-helpers';
import { apiCustomer, sessionInto } from './account-helpers';

test.setTimeout(90_000);

const json = (token: string) => ({ apikey: DEMO_ANON_KEY, authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** Makes `holder` the long-term holder of some free berth for a season years ahead; the berth's name. */
async function assignSomewhere(holder: Record<string, unknown>): Promise<string> {
  const admin = await personaToken('admin@hafen.test', 'Admin1234');
  const places = (await (await fetch(`${apiUrl}/rest/v1/places?select=id,name&order=name`, { headers: json(admin) })).json()) as {
    id: string;
    name: string;
  }[];
  for (let attempt = 0; attempt < 8; attempt++) {
    const year = new Date().getFullYear() + 6 + Math.floor(Math.random() * 40);
    const berth = places[Math.floor(Math.random() * places.length)]!;
    const res = await fetch(`${apiUrl}/rest/v1/rpc/assign_long_term_holder`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ p_place_id: berth.id, p_starts_on: `${year}-04-01`, p_ends_on: `${year}-10-31`, p_holder: holder }),
    });
    if (res.status === 200) return berth.name;
  }
  throw new Error('no berth free for a season');
}

test('de: a holder sets the registration mark and uploads the insurance certificate', async ({ page }) => {
  const email = uniqueEmail('versichert');
  await apiCustomer(email, 'Versich123', { locale: 'de', first_name: 'Vera', last_name: 'Sicher' });
  const { user } = (await (
    await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Versich123' }),
    })
  ).json()) as { user: { id: string } };
  await assignSomewhere({ user_id: user.id, boat_name: 'Seeschwalbe', boat_length: 9, boat_width: 3 });
  await sessionInto(page, email, 'Versich123');
  await page.goto('/de/account/long-time-place');

  const insurance = page.getByRole('region', { name: 'Versicherung und Kennzeichen' });
  await expect(insurance.getByText('Uns liegt noch kein Versicherungsnachweis vor.')).toBeVisible();

  const mark = insurance.getByRole('form', { name: 'Amtliches Kennzeichen' });
  await mark.getByLabel('Amtliches Kennzeichen').fill('k-ab 123');
  await mark.getByRole('button', { name: 'Kennzeichen speichern' }).click();
  await expect(mark.getByText('Kennzeichen gespeichert.')).toBeVisible();
  await expect(page.getByTestId('holding')).toContainText('Seeschwalbe (K-AB 123)');

  const form = insurance.getByRole('form', { name: 'Versicherungsnachweis hochladen' });
  await form.getByLabel('Versicherer').fill('Pantaenius');
  await form.getByLabel('Policennummer').fill('YP-2031-77');
  const year = new Date().getFullYear() + 1;
  await fillDate(form.getByLabel('Gültig bis', { exact: true }), `${year}-03-31`);
  const file = form.getByLabel('Nachweis (PDF oder Foto, höchstens 5 MB)');
  await file.setInputFiles({ name: 'notiz.txt', mimeType: 'text/plain', buffer: Buffer.from('keine Police') });
  await expect(form.getByText('Bitte laden Sie eine PDF-Datei oder ein Foto (JPEG, PNG, WebP) hoch.')).toBeVisible();
  await file.setInputFiles({
    name: 'police.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
  });
  await form.getByRole('button', { name: 'Nachweis hochladen' }).click();
  await expect(form.getByText('Versicherungsnachweis gespeichert.')).toBeVisible();
  await expect(insurance.getByTestId('insurance-status')).toContainText(
    new RegExp(`Versichert bei Pantaenius \\(Police YP-2031-77\\) bis .*31\\. März ${year}\\.`),
  );
  await expect(insurance.getByRole('button', { name: 'Nachweis ansehen' })).toBeVisible();
});

test.describe('staff (en)', () => {
  test.use({ persona: 'admin' });

  test('staff see the holder who has no insurance certificate', async ({ page }) => {
    const last = `Ohnepolice${Date.now().toString(36)}`;
    const berth = await assignSomewhere({
      first_name: 'Olaf',
      last_name: last,
      email: uniqueEmail('ohne'),
      boat_name: 'Nackt',
      boat_tag: 'D-1',
    });
    await page.goto('/en/account/admin/applications');
    const list = page.getByRole('region', { name: 'Long-term holders without a valid insurance or registration mark' });
    await list.getByLabel('Search by name, e-mail, boat or berth').fill(last);
    const row = list.getByRole('row').filter({ hasText: last });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(berth);
    await expect(row.getByRole('cell').nth(3)).toHaveText('missing');
    await expect(row).toContainText('D-1');
  });
});
