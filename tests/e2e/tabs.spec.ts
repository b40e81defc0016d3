import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/app-test';

const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name });
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

test('each tab keeps its own history, across tab switches and a reload', async ({ page, consoleErrors }) => {
  await page.goto('/start');
  await page.getByRole('link', { name: 'Alle Preise ansehen' }).click();
  await expect(page).toHaveURL(/\/start\/prices$/);
  await expect(h1(page)).toHaveText('Preise');

  await tab(page, 'Service').click();
  await expect(page).toHaveURL(/\/service$/);
  await page.getByRole('link', { name: 'Bootskran' }).click();
  await expect(h1(page)).toHaveText('Bootskran');
  await page.getByRole('link', { name: 'Service anfragen' }).click();
  await expect(page).toHaveURL(/\/service\/order$/);
  // A page counts in its tab's history once it has been shown.
  await expect(h1(page)).toHaveText('Service anfragen');

  // Back to Start: where the Start tab was.
  await tab(page, 'Start').click();
  await expect(page).toHaveURL(/\/start\/prices$/);
  await expect(tab(page, 'Start')).toHaveAttribute('aria-current', 'page');

  // And Service again where it was, also after a reload.
  await page.reload();
  await expect(h1(page)).toHaveText('Preise');
  await tab(page, 'Service').click();
  await expect(page).toHaveURL(/\/service\/order$/);

  // The back action walks the Service tab's own history.
  await page.getByRole('link', { name: 'Zurück' }).click();
  await expect(page).toHaveURL(/\/service\/lift$/);
  // The lift's page shown (the URL changes first): its back link, not the order page's one.
  await expect(h1(page)).toHaveText('Bootskran');
  await page.getByRole('link', { name: 'Zurück' }).click();
  await expect(page).toHaveURL(/\/service$/);
  await expect(page.getByRole('link', { name: 'Zurück' })).toHaveCount(0);

  // Tapping the active tab returns to its root.
  await page.getByRole('link', { name: 'Parken' }).click();
  await expect(h1(page)).toHaveText('Parken');
  await tab(page, 'Service').click();
  await expect(page).toHaveURL(/\/service$/);
  expect(consoleErrors).toEqual([]);
});

test('tab links keep the locale prefix', async ({ page }) => {
  await page.goto('/en/contact');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Service' }).click();
  await expect(page).toHaveURL(/\/en\/service$/);
  await expect(h1(page)).toHaveText('Service');
});
