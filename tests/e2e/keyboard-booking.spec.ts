/**
 * Keyboard only: a logged-in customer books a berth from /start/booking to the confirmed order
 * with Tab, Shift+Tab, Enter, Space, the arrow keys and typing (no mouse, no clicks, no fill),
 * and every stop of the focus is visible (an outline or a focus ring).
 */
import type { Page } from '@playwright/test';
import { expect as baseExpect, test } from '../helpers/app-test';
import { berlinDay } from './booking-helpers';
import { dateText, expectDate } from '../helpers/dates';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 90_000 });
test.use({ persona: 'customer' });

interface Focused {
  tag: string;
  role: string | null;
  name: string;
  type: string | null;
  visible: boolean;
  ring: boolean;
  style: string;
}

/** What has the focus, and whether one can see that it has it. */
async function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const labelled = el.getAttribute('aria-labelledby');
    const name = (
      el.getAttribute('aria-label') ??
      (labelled
        ? labelled
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ')
        : null) ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      ''
    ).trim();
    const rect = el.getBoundingClientRect();
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name,
      type: el.getAttribute('type'),
      visible: rect.width > 0 && rect.height > 0,
      ring: outline || shadow,
      style: `outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow}, focus ${el.matches(':focus')}`,
    };
  });
}

/** Presses Tab until the focus is on a matching element (bounded); every stop on the way must show its focus. */
async function tabTo(page: Page, match: (f: Focused) => boolean, what: string, max = 60): Promise<Focused> {
  const keyOf = (f: Focused | null) => (f ? `${f.tag}|${f.role}|${f.type}|${f.name}` : '');
  let previous = keyOf(await focused(page));
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (!f) continue;
    // Tab also walks the parts of a date field (day, month, year), where Chromium highlights the
    // part itself: the element was checked when it got the focus.
    const key = keyOf(f);
    if (key === previous) continue;
    previous = key;
    expect(f.visible && f.ring, `visible focus on ${f.tag}[role=${f.role}] "${f.name}" (${f.style})`).toBe(true);
    if (match(f)) return f;
  }
  throw new Error(`Tab never reached ${what}`);
}

/** Types a day into the focused date field in the German page's order (dd.MM.yyyy). */
async function typeDay(page: Page, label: string, day: string) {
  const field = page.getByLabel(label, { exact: true });
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(dateText(day, 'de'));
  await expectDate(field, day);
}

test('a customer books an overnight stay with the keyboard alone, with visible focus at every step', async ({ page, consoleErrors }) => {
  const arrival = berlinDay(45);
  const departure = berlinDay(47);
  await page.goto('/de/start/booking');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Liegeplatz buchen');
  await expect(page.getByLabel('Bootsname', { exact: true })).toHaveValue('Rheinperle');

  // Step 1: the kind of stay with the arrow keys (a radio group is one Tab stop).
  // (Native radio buttons: their role is implicit, not an attribute.)
  await tabTo(page, (f) => f.role === 'radio' || f.type === 'radio', 'the kind of stay');
  const overnight = page.getByRole('radio', { name: /^Übernachtung/ });
  await expect(overnight).toBeFocused();
  // The key is held until focus has moved, as a person's key is (a radix radio group, as step 3
  // has, checks the newly focused radio only while the arrow key is still down).
  const next = page.getByRole('radio').nth(1);
  await page.keyboard.down('ArrowDown');
  await expect(next).toBeFocused();
  await page.keyboard.up('ArrowDown');
  await expect(next).toBeChecked();
  await expect(overnight).not.toBeChecked();
  await page.keyboard.down('ArrowUp');
  await expect(overnight).toBeFocused();
  await page.keyboard.up('ArrowUp');
  await expect(overnight).toBeChecked();

  // The arrival typed into its date field; the departure picked in the range calendar with the
  // keys (issue 40 item 15): its button, Enter, the grid opens on the arrival, Enter keeps it as
  // the arrival, ArrowRight twice, Enter picks the departure and closes it.
  await tabTo(page, (f) => f.tag === 'input' && f.name === 'Anreise', 'Anreise');
  await typeDay(page, 'Anreise', arrival);
  await tabTo(page, (f) => f.tag === 'button' && f.name === 'Zeitraum im Kalender wählen', 'the range calendar');
  await page.keyboard.press('Enter');
  const grid = page.getByRole('grid').first();
  await expect(grid).toBeVisible();
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /^.+, \d+\. .+ \d{4}(, ausgewählt)?$/);
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(grid).toBeHidden();
  await expectDate(page.getByLabel('Anreise', { exact: true }), arrival);
  await expectDate(page.getByLabel('Abreise', { exact: true }), departure);
  await expect(page.getByRole('button', { name: 'Zeitraum im Kalender wählen' })).toBeFocused();

  // The boat comes from the profile; search with Enter.
  await tabTo(page, (f) => f.tag === 'button' && f.name === 'Freie Liegeplätze suchen', 'the search button');
  await page.keyboard.press('Enter');

  // Step 2: the first free berth, chosen with Enter.
  const results = page.getByRole('list', { name: 'Freie Liegeplätze' });
  await expect(results.getByRole('listitem').first()).toBeVisible();
  const chosen = await tabTo(page, (f) => f.tag === 'button' && /^Liegeplatz .+ wählen$/.test(f.name), 'a berth');
  const berth = chosen.name.replace(/^Liegeplatz (.+) wählen$/, '$1');
  await page.keyboard.press('Enter');

  // Step 5: the summary (logged in, the person comes from the profile); accept the terms with Space, book with Enter.
  await expect(page.getByRole('heading', { name: /Zusammenfassung/ })).toBeVisible();
  await expect(page.getByLabel('Vorname')).toHaveValue('Klaus');
  await tabTo(page, (f) => f.role === 'checkbox' && /AGB/.test(f.name), 'the terms checkbox');
  await page.keyboard.press('Space');
  await expect(page.getByRole('checkbox', { name: /Ich akzeptiere die AGB/ })).toBeChecked();
  await tabTo(page, (f) => f.tag === 'button' && f.name === 'Verbindlich buchen', 'the book button');
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/start\/booking\/result\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vielen Dank für Ihre Buchung');
  await expect(page.getByText('Bestätigt', { exact: true })).toBeVisible();
  await expect(page.getByText(berth, { exact: true })).toBeVisible();
  // Focus moved somewhere sensible and visible after the step changes, not lost on <body> for good.
  await tabTo(page, () => true, 'anything on the result page');
  expect(consoleErrors).toEqual([]);
});
