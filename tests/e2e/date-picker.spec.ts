/**
 * Date and time fields follow the page's language, not the browser's (issue 23 item 4, issue 40
 * items 13 and 15): in an English-language (en-US) browser a German page writes 05.03.2031,
 * shows "März", weeks from Monday, and day-stay times as "10:00 Uhr" (never "10:00 AM"); the
 * English page writes 05/03/2031, shows "March" and "10:00". Arrival and departure are one
 * range: one calendar button, the first pick the arrival, the next later one the departure.
 */
import { expect, test } from '../helpers/app-test';
import { expectDate, fillDate } from '../helpers/dates';
import { berlinDay } from './booking-helpers';

test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

// March of next year: within the booking horizon (24 months by default) whenever the suite runs.
const year = Number(berlinDay(0).slice(0, 4)) + 1;
const day = (d: number) => `${year}-03-${String(d).padStart(2, '0')}`;

for (const [locale, placeholder, month, weekdays, open, ten] of [
  ['de', 'TT.MM.JJJJ', `März ${year}`, 'MoDiMiDoFrSaSo', 'Zeitraum im Kalender wählen', '10:00 Uhr'],
  ['en', 'DD/MM/YYYY', `March ${year}`, 'MoTuWeThFrSaSu', 'Choose dates in the calendar', '10:00'],
] as const) {
  test(`the ${locale} booking form in an en-US browser writes and shows dates and times in ${locale}`, async ({ page, consoleErrors }) => {
    await page.goto(`/${locale}/start/booking`);
    const arrival = page.getByLabel(locale === 'de' ? 'Anreise' : 'Arrival', { exact: true });
    const departure = page.getByLabel(locale === 'de' ? 'Abreise' : 'Departure', { exact: true });
    // Prefilled with today in Düsseldorf, written the page's way.
    await expectDate(arrival, berlinDay(0));
    await expect(arrival).toHaveAttribute('placeholder', placeholder);
    await expect(arrival).toHaveAttribute('type', 'text');

    await fillDate(arrival, day(5));
    await expect(arrival).toHaveValue(locale === 'de' ? `05.03.${year}` : `05/03/${year}`);
    // One calendar for both days (no calendar button per field).
    await expect(page.getByRole('button', { name: locale === 'de' ? 'Kalender öffnen' : 'Open calendar' })).toHaveCount(0);
    await page.getByRole('button', { name: open }).click();
    const grid = page.getByRole('grid').first();
    await expect(grid).toBeVisible();
    await expect(page.getByText(month, { exact: true })).toBeVisible();
    await expect(grid.locator('thead')).toHaveText(weekdays);
    // The first pick is the arrival; then only later days can be the departure.
    await grid.locator(`[data-day="${day(6)}"] button`).click();
    await expectDate(arrival, day(6));
    await expect(grid.locator(`[data-day="${day(6)}"] button`)).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(grid).toBeHidden();
    // Keyboard: the button opens it, arrow keys move, Enter picks (arrival, then departure).
    await page.getByRole('button', { name: open }).focus();
    await page.keyboard.press('Enter');
    await expect(grid).toBeVisible();
    await expect(grid.locator(`[data-day="${day(6)}"] button`)).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect(grid).toBeHidden();
    await expectDate(arrival, day(6));
    await expectDate(departure, day(9));

    // Day stays: times in 24-hour form as the page writes them, whatever the browser's locale.
    await page.getByRole('radio', { name: locale === 'de' ? /^Tagesliegeplatz/ : /^Day berth/ }).click();
    const from = page.getByLabel(locale === 'de' ? 'Von' : 'From', { exact: true });
    await from.selectOption('10:00');
    await expect(from.locator('option:checked')).toHaveText(ten);
    expect(consoleErrors).toEqual([]);
  });
}
