import { expect, test } from '../helpers/app-test';
import { seriousViolations } from '../helpers/axe';
import { adminToken, rest, uniqueName } from './admin-helpers.ts';

test.describe('harbour map: admins', () => {
  test.use({ persona: 'admin' });

  test('the plan shows berths by state with a text label and the columns; an admin places a new column by clicking the plan', async ({
    page,
    consoleErrors,
  }) => {
    // Many steps on a shared 2-core machine.
    test.setTimeout(60_000);
    await page.goto('/account/admin/map');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hafenplan');
    const plan = page.getByRole('group', { name: 'Hafenplan', exact: true });
    const a01 = plan.locator('[data-berth="A01"]');
    await expect(a01).toHaveAttribute('aria-label', /^A01: (frei|reserviert|vermietet|Wartung|Langzeitlieger)$/);
    // Not colour alone: every berth carries its state as text.
    const state = await a01.getAttribute('data-state');
    const short = { free: 'frei', reservation: 'Res.', rent: 'Miete', maintenance: 'Wart.', long_term: 'Dauer' }[state!];
    await expect(a01.locator('text').nth(1)).toHaveText(short!);
    await expect(plan.locator('[data-column]')).not.toHaveCount(0);
    await expect(page.locator('[data-live]')).toHaveAttribute('data-live', 'live');
    expect(await seriousViolations(page)).toEqual([]);

    // Issue 40, item 7: a click on a berth opens it: a dialog in view with today's state and the
    // way to the berth's edit page (the details used to appear below the plan, out of sight).
    await page.setViewportSize({ width: 390, height: 844 });
    await plan.locator('[data-berth="E10"]').scrollIntoViewIfNeeded();
    await plan.locator('[data-berth="E10"]').click();
    const details = page.getByRole('dialog', { name: 'Liegeplatz E10' });
    await expect(details).toBeInViewport();
    await expect(details).toContainText('Stand heute:');
    await details.getByRole('link', { name: 'Liegeplatz bearbeiten' }).click();
    await expect(page).toHaveURL(/\/account\/admin\/places\/[0-9a-f-]{36}\/edit$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('E10');
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goBack();
    await expect(plan.locator('[data-berth="A01"]')).toBeVisible();

    // A new column: position required first, then chosen by a click on the plan.
    const name = uniqueName('Stromsäule M');
    const panel = page.getByRole('region', { name: 'Säule platzieren' });
    await panel.getByLabel('Name').fill(name);
    await panel.getByRole('button', { name: 'Säule speichern' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Position erforderlich: genau 2 Koordinaten (x 0–1000, y 0–600).');
    await panel.getByRole('button', { name: 'Position auf dem Plan wählen' }).click();
    const box = (await plan.boundingBox())!;
    // 5 % from the left, 90 % down: open water south-west of pier A.
    await plan.click({ position: { x: box.width * 0.05, y: box.height * 0.9 } });
    const x = Number(await panel.getByLabel('x', { exact: true }).inputValue());
    const y = Number(await panel.getByLabel('y', { exact: true }).inputValue());
    expect(x).toBeGreaterThan(35);
    expect(x).toBeLessThan(65);
    expect(y).toBeGreaterThan(520);
    expect(y).toBeLessThan(560);
    await panel.getByRole('button', { name: 'Säule speichern' }).click();
    await expect(panel.getByRole('status')).toHaveText('Säule gespeichert.');
    const column = plan.locator(`[data-column="${name}"]`);
    await expect(column).toHaveAttribute('data-x', String(x));
    await expect(column).toHaveAttribute('data-y', String(y));
    const stored = await rest(await adminToken(), `additional_places?name=eq.${encodeURIComponent(name)}&select=position,type`);
    expect(stored.body).toEqual([{ position: [x, y], type: 'electric' }]);

    // It is listed with the columns and can be deleted there (with a confirmation).
    await page.goto('/account/admin/additional-places');
    await page.getByRole('button', { name: `${name} löschen` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Säule löschen?' });
    await expect(dialog).toContainText(`„${name}“ wird mit ihrem Bild gelöscht`);
    await dialog.getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByRole('rowheader', { name })).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('harbour map: staff', () => {
  test.use({ persona: 'harbour' });

  test('harbour staff see the plan and berth details but cannot place columns', async ({ page }) => {
    await page.goto('/account/admin/map');
    const plan = page.getByRole('group', { name: 'Hafenplan', exact: true });
    await expect(plan.locator('[data-berth="B01"]')).toBeVisible();
    await plan.locator('[data-berth="B01"]').click();
    const details = page.getByRole('dialog', { name: 'Liegeplatz B01' });
    await expect(details).toContainText('Stand heute:');
    // Staff have no berth page to go to (admins edit berths).
    await expect(details.getByRole('link')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Säule platzieren' })).toHaveCount(0);
  });

  test('every pier name is readable: no column marker covers it (Steg D and E had their water column on top)', async ({ page }) => {
    await page.goto('/account/admin/map');
    const plan = page.getByRole('group', { name: 'Hafenplan', exact: true });
    await expect(plan.locator('text[data-pier]')).toHaveCount(5);
    const overlaps = await plan.evaluate((svg) => {
      const box = (e: Element) => e.getBoundingClientRect();
      const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const markers = [...svg.querySelectorAll('[data-column] circle')].map(box);
      const berths = [...svg.querySelectorAll('[data-berth] rect')].map(box);
      const planBox = box(svg);
      return [...svg.querySelectorAll('text[data-pier]')].flatMap((label) => {
        const b = box(label);
        const inside = b.top >= planBox.top && b.bottom <= planBox.bottom;
        return [...markers, ...berths].some((m) => hit(b, m)) || !inside ? [label.textContent] : [];
      });
    });
    expect(overlaps).toEqual([]);
    await expect(plan.locator('text[data-pier="D"]')).toHaveText('Steg D');
    // Issue 40, item 7: nor does a marker lie on a berth (they sit on the pier between its berths).
    const covered = await plan.evaluate((svg) => {
      const box = (e: Element) => e.getBoundingClientRect();
      const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const markers = [...svg.querySelectorAll('[data-column] circle')].map(box);
      return [...svg.querySelectorAll('[data-berth] rect[data-tile]')]
        .filter((r) => markers.some((m) => hit(box(r), m)))
        .map((r) => r.parentElement!.getAttribute('data-berth'));
    });
    expect(covered).toEqual([]);
    expect(await plan.locator('[data-berth] rect[data-tile]').count()).toBeGreaterThan(50);
  });

  test('English: the plan and its legend', async ({ page }) => {
    await page.goto('/en/account/admin/map');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Harbour map');
    await expect(page.getByRole('group', { name: 'Harbour map', exact: true }).locator('[data-berth="A01"]')).toHaveAttribute(
      'aria-label',
      /^A01: (free|reserved|rented|Maintenance|Long-term holder)$/,
    );
    await expect(page.getByRole('list', { name: 'Legend' })).toContainText('Electricity column');
  });
});
