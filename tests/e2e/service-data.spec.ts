import { expect, test } from '../helpers/app-test';
import { routeExternalApis } from '../helpers/external-fixtures';

test('water level and weather load from PEGELONLINE and Bright Sky', async ({ page, consoleErrors }) => {
  await page.goto('/en/service');
  const water = page.getByTestId('water-level');
  await expect(water).toContainText('312 cm');
  await expect(water).toContainText('rising');
  await expect(water.getByRole('img')).toHaveAttribute('aria-label', /from 25\d cm .* to 31\d cm/);
  const weather = page.getByTestId('weather');
  await expect(weather).toContainText('11 °C');
  await expect(weather).toContainText('partly cloudy');
  await expect(weather).toContainText('Wind 14 km/h');
  await expect(weather.getByRole('listitem')).toHaveCount(4);
  expect(consoleErrors).toEqual([]);
});

test("failures show 'currently unavailable' and the page stays usable", async ({ page }) => {
  await page.unrouteAll();
  await routeExternalApis(page, 'fail');
  await page.goto('/de/service');
  // Nothing known yet on this device: the message and the source's page.
  await expect(page.getByTestId('water-unavailable')).toHaveText('Der Pegel ist zurzeit nicht verfügbar. Aktuelle Werte: PEGELONLINE.', {
    timeout: 15_000,
  });
  await expect(page.getByTestId('water-unavailable').getByRole('link', { name: 'PEGELONLINE' })).toHaveAttribute(
    'href',
    /^https:\/\/www\.pegelonline\.wsv\.de\//,
  );
  await expect(page.getByTestId('weather-unavailable')).toHaveText(
    'Das Wetter ist zurzeit nicht verfügbar. Vorhersagen: Deutscher Wetterdienst.',
    { timeout: 15_000 },
  );
  await expect(page.getByRole('heading', { name: 'Hafenordnung' })).toBeVisible();
  await page.getByRole('link', { name: 'Eismaschine' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Eismaschine');
});
