import { expect, test } from '../helpers/app-test';

test.use({ serviceWorkers: 'allow' });

test('the service worker caches the shell: a reload without network still opens the app', async ({ page, context }) => {
  await page.goto('/en/service/lift');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boat lift');
  // Wait until /sw.js controls the page and has precached the shell.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boat lift');
  // Another page of the app, never visited, opens from the cache too.
  await page.goto('/de/start/prices');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Preise');
  await context.setOffline(false);
});
