/**
 * Date fields (src/components/ui/date-picker.tsx) are text fields in the page's language:
 * 29.08.2031 on German pages, 29/08/2031 on English ones. Tests type a day as a person would,
 * in the page's order, and read it back the same way; the yyyy-MM-dd value the form works with is
 * on the field's data-value.
 */
import { expect, type Locator } from '@playwright/test';

/** yyyy-MM-dd as the page writes it. */
export function dateText(day: string, locale: 'de' | 'en'): string {
  const [y, m, d] = day.split('-');
  return locale === 'en' ? `${d}/${m}/${y}` : `${d}.${m}.${y}`;
}

async function pageLocale(field: Locator): Promise<'de' | 'en'> {
  const lang = await field.page().evaluate(() => document.documentElement.lang);
  return lang.startsWith('en') ? 'en' : 'de';
}

/** Types a day (yyyy-MM-dd, or '' to empty the field) into a date field and leaves it. */
export async function fillDate(field: Locator, day: string) {
  await field.fill(day ? dateText(day, await pageLocale(field)) : '');
  await field.blur();
}

/** The field shows the day in the page's order and holds it as yyyy-MM-dd. */
export async function expectDate(field: Locator, day: string) {
  await expect(field).toHaveAttribute('data-value', day);
  await expect(field).toHaveValue(day ? dateText(day, await pageLocale(field)) : '');
}
