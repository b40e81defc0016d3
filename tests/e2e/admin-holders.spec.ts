import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { DEMO_ANON_KEY } from '../../supabase/local/src/keys.ts';
import { apiUrl, berlinDay, formClient } from './booking-helpers.ts';
import { adminToken, createBerth, rest, uniqueName } from './admin-helpers.ts';
import { fillDate } from '../helpers/dates';

test.describe('long-term holders', () => {
  test.use({ persona: 'admin' });

  test('an admin takes over an application (listed in waiting-list order), assigns the holder, and removes it after the confirmation', async ({
    page,
    consoleErrors,
  }) => {
    // Many steps on a shared 2-core machine.
    test.setTimeout(60_000);
    const berth = uniqueName('L');
    const placeId = await createBerth(berth);
    const apply = (email: string, first: string) =>
      fetch(`${apiUrl}/rest/v1/rpc/apply_for_long_term_berth`, {
        method: 'POST',
        headers: { apikey: DEMO_ANON_KEY, 'content-type': 'application/json', ...formClient() },
        body: JSON.stringify({
          p_email: email,
          p_first_name: first,
          p_last_name: 'Seemann',
          p_boat: { name: `Boot ${first}`, length: 10, width: 3.5 },
          p_place_id: placeId,
        }),
      });
    expect((await apply(`${berth.toLowerCase()}-1@hafen.test`, 'Erste')).status).toBe(200);
    expect((await apply(`${berth.toLowerCase()}-2@hafen.test`, 'Zweite')).status).toBe(200);

    await page.goto(`/account/admin/places/${placeId}/edit`);
    const section = page.getByRole('region', { name: 'Langzeitlieger' });
    await expect(section.getByTestId('holder-summary')).toHaveText('Kein Langzeitlieger.');
    const dialog = page.getByRole('dialog', { name: `Langzeitlieger für ${berth}` });
    // The first click can land while the app re-checks the new session (and re-renders the page).
    await expect(async () => {
      await section.getByRole('button', { name: 'Langzeitlieger verwalten' }).click();
      await expect(dialog).toBeVisible({ timeout: 1000 });
    }).toPass();
    const applications = dialog.getByRole('region', { name: 'Bewerbungen für diesen Liegeplatz' }).getByRole('listitem');
    await expect(applications).toHaveCount(2);
    // Waiting-list order: the first application before the second, with rising positions.
    await expect(applications.nth(0)).toContainText('Erste Seemann');
    await expect(applications.nth(1)).toContainText('Zweite Seemann');
    const pos = async (i: number) => Number(/Platz (\d+) auf der Warteliste/.exec((await applications.nth(i).textContent())!)![1]);
    expect(await pos(1)).toBe((await pos(0)) + 1);
    expect(await seriousViolations(page)).toEqual([]);

    // Bad input gives a clear message.
    const form = dialog.getByRole('form', { name: 'Langzeitlieger zuweisen' });
    await form.getByRole('button', { name: 'Speichern' }).click();
    await expect(form.getByRole('alert')).toHaveText(
      'Bitte einen Beginn, gültige Bootsmaße und einen Benutzer, eine E-Mail oder einen Namen angeben.',
    );

    await applications.nth(0).getByRole('button', { name: 'Bewerbung von Erste Seemann übernehmen' }).click();
    await expect(form.getByLabel('Bootsname')).toHaveValue('Boot Erste');
    await fillDate(form.getByLabel('Beginn'), berlinDay(30));
    await form.getByRole('button', { name: 'Speichern' }).click();
    await expect(form.getByRole('status')).toHaveText('Langzeitlieger gespeichert.');
    const current = dialog.getByRole('region', { name: 'Aktueller Langzeitlieger' });
    await expect(current).toContainText('Erste Seemann');
    await expect(current).toContainText('Boot: Boot Erste');
    // The application is answered: only the second one still waits.
    await expect(applications).toHaveCount(1);

    // The same berth twice is refused with a message.
    await form.getByLabel('Nachname').fill('Doppelt');
    await fillDate(form.getByLabel('Beginn'), berlinDay(31));
    await form.getByRole('button', { name: 'Speichern' }).click();
    await expect(form.getByRole('alert')).toHaveText('Der Liegeplatz hat in diesem Zeitraum schon einen Langzeitlieger.');

    // Remove, through the confirmation.
    await current.getByRole('button', { name: 'Entfernen' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Langzeitlieger entfernen?' });
    await expect(confirm).toContainText(`Die Zuweisung von Erste Seemann an ${berth} wird aufgehoben, bevor sie beginnt.`);
    await confirm.getByRole('button', { name: 'Entfernen' }).click();
    await expect(current.getByRole('status')).toHaveText('Langzeitlieger entfernt.');
    await expect(current).toContainText('Kein Langzeitlieger.');
    await page.keyboard.press('Escape');
    await expect(section.getByTestId('holder-summary')).toHaveText('Kein Langzeitlieger.');

    const events = await rest(await adminToken(), `long_term_holder_events?place_id=eq.${placeId}&select=action&order=id`);
    expect(events.body).toEqual([{ action: 'assigned' }, { action: 'removed' }]);
    expect(consoleErrors.filter((e) => !e.includes('409') && !e.includes('assign_long_term_holder'))).toEqual([]);
  });
});
