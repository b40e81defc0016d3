import { format, parseISO } from 'date-fns';
import { de, enGB } from 'date-fns/locale';

const numberLocale = (locale: string) => (locale === 'en' ? 'en-GB' : 'de-DE');

/** Formatters for one page language: money in euros, numbers, percent, months (calendar months, no time zone shift). */
export function formatters(locale: string) {
  const euro = new Intl.NumberFormat(numberLocale(locale), { style: 'currency', currency: 'EUR' });
  const decimal = (digits: number) => new Intl.NumberFormat(numberLocale(locale), { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const one = decimal(1);
  const two = decimal(2);
  const int = new Intl.NumberFormat(numberLocale(locale));
  const sep = locale === 'en' ? '.' : ',';
  return {
    money: (cents: number) => euro.format(cents / 100),
    int: (n: number) => int.format(n),
    one: (n: number | null) => (n === null ? '–' : one.format(n)),
    two: (n: number | null) => (n === null ? '–' : two.format(n)),
    percent: (n: number | null) => (n === null ? '–' : `${one.format(n)} %`),
    month: (day: string) => format(parseISO(day), locale === 'en' ? 'MMM yyyy' : 'MMM yyyy', { locale: locale === 'en' ? enGB : de }),
    /** CSV: euros with two decimals and the language's decimal mark, no thousands separator. */
    csvMoney: (cents: number) => (cents / 100).toFixed(2).replace('.', sep),
    csvDecimal: (n: number | null, digits: number) => (n === null ? '' : n.toFixed(digits).replace('.', sep)),
  };
}
