/**
 * The date picker follows the page's language, not the browser's (issue 23, item 4): German pages
 * write 05.03.2031 and show "März", English ones 05/03/2031 and "March"; weeks start on Monday;
 * the value stays yyyy-MM-dd.
 */
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { DatePicker } from '@/components/ui/date-picker';
import { formatDateText, parseDateText } from '@/components/ui/date-text';
import { renderPage } from './render';

function Field({ initial, seen }: { initial: string; seen: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="d">Datum</label>
      <DatePicker
        id="d"
        value={value}
        onChange={(v) => {
          seen.push(v);
          setValue(v);
        }}
        min="2031-03-03"
      />
      <output data-testid="value">{value}</output>
    </>
  );
}

// The calendar is a lazy chunk; transform it once up front (slow on a loaded machine).
beforeAll(async () => {
  await import('@/components/ui/calendar');
}, 120_000);

describe('date text', () => {
  it("writes and reads the page language's order", () => {
    expect(formatDateText('2031-03-05', 'de')).toBe('05.03.2031');
    expect(formatDateText('2031-03-05', 'en')).toBe('05/03/2031');
    expect(formatDateText('2031-02-30', 'de')).toBe('');
    expect(parseDateText('5.3.2031')).toBe('2031-03-05');
    expect(parseDateText('05/03/2031')).toBe('2031-03-05');
    expect(parseDateText('2031-03-05')).toBe('2031-03-05');
    expect(parseDateText('29.02.2031')).toBeNull();
    expect(parseDateText('29.02.2032')).toBe('2032-02-29');
    expect(parseDateText('05.03.203')).toBeNull();
    expect(parseDateText('03/05/31')).toBeNull();
  });
});

for (const [locale, text, typed, month, weekdays, open] of [
  ['de', '05.03.2031', '07.03.2031', 'März 2031', ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'], 'Kalender öffnen'],
  ['en', '05/03/2031', '07/03/2031', 'March 2031', ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'], 'Open calendar'],
] as const) {
  describe(`a ${locale} page`, () => {
    it(`shows ${text}, reads what is typed and picks from a ${month} calendar starting on Monday`, { timeout: 30_000 }, async () => {
      const seen: string[] = [];
      await renderPage(() => <Field initial="2031-03-05" seen={seen} />, { locale });
      const field = screen.getByLabelText('Datum') as HTMLInputElement;
      expect(field.value).toBe(text);
      expect(field.placeholder).toBe(locale === 'de' ? 'TT.MM.JJJJ' : 'DD/MM/YYYY');

      fireEvent.change(field, { target: { value: typed } });
      expect(screen.getByTestId('value').textContent).toBe('2031-03-07');

      fireEvent.click(screen.getByRole('button', { name: open }));
      const grid = await screen.findByRole('grid', {}, { timeout: 20_000 });
      expect(within(document.body).getByText(month)).toBeTruthy();
      // The weekday row is hidden from screen readers (each day's label names its weekday).
      const heads = [...grid.querySelectorAll('thead th')].map((th) => th.textContent);
      expect(heads).toEqual(weekdays);
      // Before min: not selectable.
      const second = within(grid)
        .getAllByRole('button')
        .find((b) => b.textContent === '2')!;
      expect(second.hasAttribute('disabled')).toBe(true);
      const tenth = within(grid)
        .getAllByRole('button')
        .find((b) => b.textContent === '10')!;
      fireEvent.click(tenth);
      expect(screen.getByTestId('value').textContent).toBe('2031-03-10');
      expect(field.value).toBe(locale === 'de' ? '10.03.2031' : '10/03/2031');

      // Text that is no day is handed on when the field is left (a schema then reports it).
      fireEvent.change(field, { target: { value: '31.02.2031' } });
      fireEvent.blur(field);
      expect(seen.at(-1)).toBe('31.02.2031');
    });
  });
}
