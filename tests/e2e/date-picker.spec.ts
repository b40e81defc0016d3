/**
 * Date fields follow the page's language, not the browser's (issue 23, item 4): in an
 * English-language (en-US) browser a German page writes 05.03.2031 and shows "März", weeks from
 * Monday; the English page writes 05/03/2031 and shows "March".
 */
import { expect, test } from '../helpers/app-test';
import { expectDate, fillDate } from '../helpers/dates';
import { berlinDay } from './booking-helpers';

test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

for (const [locale, placeholder, month, weekdays, open] of [
  ['de', 'TT.MM.JJJJ', 'März 2031', 'MoDiMiDoFrSaSo', 'Kalender öffnen'],
  ['en', 'DD/MM/YYYY', 'March 2031', 'MoTuWeThFrSaSu', 'Open calendar'],
] as const) {
  test(`the ${locale} booking form in an en-US browser writes and shows dates in ${locale}`, async ({ page, consoleErrors }) => {
    await page.goto(`/${locale}/start/booking`);
    const arrival = page.getByLabel(locale === 'de' ? 'Anreise' : 'Arrival', { exact: true });
    const departure = page.getByLabel(locale === 'de' ? 'Abreise' : 'Departure', { exact: true });
    // Prefilled with today in Düsseldorf, written the page's way.
    await expectDate(arrival, berlinDay(0));
    await expect(arrival).toHaveAttribute('placeholder', placeholder);
    await expect(arrival).toHaveAttribute('type', 'text');

    await fillDate(arrival, '2031-03-05');
    await expect(arrival).toHaveValue(locale === 'de' ? '05.03.2031' : '05/03/2031');
    await page.getByRole('button', { name: open }).nth(1).click();
    const grid = page.getByRole('grid');
    await expect(grid).toBeVisible();
    await expect(page.getByText(month, { exact: true })).toBeVisible();
    await expect(grid.locator('thead')).toHaveText(weekdays);
    // The departure's calendar starts after the arrival: the 5th cannot be picked, the 9th can.
    await expect(grid.locator('[data-day="2031-03-05"] button')).toBeDisabled();
    await grid.locator('[data-day="2031-03-09"] button').click();
    await expect(grid).toBeHidden();
    await expectDate(departure, '2031-03-09');
    expect(consoleErrors).toEqual([]);
  });
}
