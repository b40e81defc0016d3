/**
 * The staff screens of the harbour status (issue 43, docs/adr/0053): an admin changes the gauge
 * thresholds in the settings (de), a bad pair is refused with its message; staff set a status
 * override with a reason on the overview (en; the page calls set_harbour_status_override), the
 * start page shows it, and staff end it after the question.
 * Imports gauge-helpers, so it runs in the `river` project (one at a time, after the others).
 * Afterwards the thresholds are 710/880 again, no override is in force and the river is normal.
 */
import { expect, test } from '../helpers/app-test';
import { personas } from '../helpers/personas.ts';
import { personaToken } from './booking-helpers.ts';
import { calmRiver } from './gauge-helpers.ts';
import { rpc, staffToken } from './rest-helpers.ts';

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  // A known level, so the status shows at all.
  await calmRiver();
});

test.afterAll(async () => {
  const admin = await personaToken(personas.admin.email, personas.admin.password);
  const thresholds = await rpc('set_gauge_thresholds', { p_restricted_from_cm: 710, p_closed_from_cm: 880 }, admin);
  expect(thresholds.status).toBe(200);
  const ended = await rpc('end_harbour_status_override', {}, await staffToken());
  expect(ended.status).toBe(200);
  await calmRiver();
});

test.describe('an admin', () => {
  test.use({ persona: 'admin' });

  test('changes the gauge thresholds; a bad pair is refused with the message', async ({ page, consoleErrors }) => {
    await page.goto('/de/account/admin/settings');
    const section = page.getByRole('region', { name: 'Rhein / Pegel' });
    await expect(section).toContainText('RheinSchPV § 10.01');
    const restricted = section.getByLabel('Eingeschränkt ab (cm)');
    const closed = section.getByLabel('Gesperrt ab (cm)');
    await expect(restricted).toHaveValue('710');
    await expect(closed).toHaveValue('880');

    await restricted.fill('900');
    await closed.fill('850');
    await section.getByRole('button', { name: 'Pegelgrenzen speichern' }).click();
    await expect(section.getByText('Die Pegelgrenzen müssen zwischen 1 und 15 m liegen, „eingeschränkt“ unter „gesperrt“.')).toBeVisible();
    await expect(section.getByRole('status')).toHaveCount(0);

    await restricted.fill('700');
    await closed.fill('870');
    await section.getByRole('button', { name: 'Pegelgrenzen speichern' }).click();
    await expect(section.getByRole('status')).toHaveText('Gespeichert.');

    await page.reload();
    await expect(page.getByRole('region', { name: 'Rhein / Pegel' }).getByLabel('Eingeschränkt ab (cm)')).toHaveValue('700');
    await expect(page.getByRole('region', { name: 'Rhein / Pegel' }).getByLabel('Gesperrt ab (cm)')).toHaveValue('870');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('staff', () => {
  test.use({ persona: 'harbour' });

  test('set an override with a reason, the start page shows it, and end it', async ({ page, consoleErrors }) => {
    const reason = `Driftwood at the entrance ${Date.now().toString(36)}`;
    await page.goto('/en/account/admin/overview');
    const section = page.getByRole('region', { name: 'Harbour status and override' });
    await expect(section.getByText('Harbour open')).toBeVisible();
    const form = section.getByRole('form', { name: 'Set override' });
    await form.getByRole('radio', { name: 'restricted' }).click();
    await form.getByRole('button', { name: 'Set override' }).click();
    await expect(form.getByText('This field is required')).toBeVisible();
    await form.getByLabel('Reason (shown to guests)').fill(reason);
    await form.getByRole('button', { name: 'Set override' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
    await expect(section.getByText('Harbour restricted')).toBeVisible();
    await expect(section.getByTestId('harbour-status-override')).toContainText(`Override in force: restricted. Reason: ${reason}`);

    await page.goto('/en/start');
    const start = page.getByRole('region', { name: 'Harbour status' });
    await expect(start.getByText('Harbour restricted')).toBeVisible();
    await expect(start).toContainText(`Set by the harbour: ${reason}`);

    await page.goto('/en/account/admin/overview');
    await section.getByRole('button', { name: 'End override' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'End the override?' });
    await dialog.getByRole('button', { name: 'End override' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(section.getByTestId('harbour-status-override')).toHaveCount(0);
    await expect(section.getByText('Harbour open')).toBeVisible();

    await page.goto('/en/start');
    await expect(page.getByTestId('harbour-status')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
