import { expect, test } from '../helpers/app-test';

test('a chunk that fails to load reloads the page once, then shows the error page', async ({ page }) => {
  await page.goto('/service');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Service');
  // /service arrives prerendered: the heading is there before the app listens for navigation;
  // main.tsx lifts `inert` once the app has taken over.
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  // The drone video page's code "disappears" (as after a deploy).
  await page.route(/\/assets\/drone-video-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  let loads = 0;
  page.on('load', () => loads++);
  await page.evaluate(() => {
    history.pushState({}, '', '/drone-video');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ein Fehler ist aufgetreten', { timeout: 15_000 });
  await expect(page.getByRole('link', { name: 'Startseite' })).toBeVisible();
  await page.waitForTimeout(1500);
  expect(loads).toBe(1);

  // A minute later the same failure may reload once more. (The Home link is a full page load.)
  await page.evaluate(() => localStorage.setItem('chunk-reload-at', String(Date.now() - 61_000)));
  await page.getByRole('link', { name: 'Startseite' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Willkommen im Hafen Düsseldorf');
  await expect(page.locator('#root')).not.toHaveAttribute('inert'); // /start is prerendered too
  await page.evaluate(() => {
    history.pushState({}, '', '/drone-video');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ein Fehler ist aufgetreten', { timeout: 15_000 });
  await page.waitForTimeout(1500);
  expect(loads).toBe(3);
});
