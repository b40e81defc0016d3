import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { longTermPriceSchema } from '@/features/admin/seasons/schemas/long-term-price';
import { seasonSchema } from '@/features/admin/seasons/schemas/season';
import { priceOn, pricesAfter, seasonName, type LongTermPrice } from '@/features/admin/seasons/api/seasons';

i18n.loadAndActivate({ locale: 'de', messages: {} });

const row = (id: number, kind: LongTermPrice['season_kind'], validFrom: string, cents: number): LongTermPrice => ({
  id,
  season_kind: kind,
  basis: 'running_metre',
  gross_cents: cents,
  vat_rate: 19,
  electricity_gross_cents: 0,
  electricity_vat_rate: 19,
  valid_from: validFrom,
  created_at: '2026-01-01T00:00:00Z',
  created_by: null,
});

/** The seasons page's forms repeat the database's checks (pgTAP 405); its lists pick rows as private.long_term_price_row does. */
describe('seasons and long-term prices (admin)', () => {
  const price = {
    kind: 'summer',
    basis: 'running_metre',
    price: '95,50',
    vatRate: '19',
    electricity: '120',
    electricityVatRate: '7',
    validFrom: '2027-01-01',
  } as const;

  it('turns euros into integer cents, with a comma or a point', () => {
    const parsed = longTermPriceSchema('2026-12-07').parse(price);
    expect(parsed.price).toBe(9550);
    expect(parsed.electricity).toBe(12000);
    expect(longTermPriceSchema('2026-12-07').parse({ ...price, price: '0.01', electricity: '0' })).toMatchObject({
      price: 1,
      electricity: 0,
    });
  });

  it('refuses a negative or zero price, a price above 100.000 € and a change from today', () => {
    const schema = longTermPriceSchema('2026-12-07');
    for (const bad of ['-5', '0', '0,00', '100000,01', '12,345', 'abc']) {
      const r = schema.safeParse({ ...price, price: bad });
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0].path).toEqual(['price']);
    }
    expect(schema.safeParse({ ...price, electricity: '-1' }).success).toBe(false);
    const today = schema.safeParse({ ...price, validFrom: '2026-12-07' });
    expect(today.error?.issues.map((i) => [i.path, i.message])).toEqual([[['validFrom'], 'Eine Preisänderung gilt frühestens ab morgen.']]);
  });

  it('wants a season to end after it starts, with a German and an English name', () => {
    const season = { name: 'Sommer 2030', nameEn: 'Summer 2030', kind: 'summer', startsOn: '2030-04-01', endsOn: '2030-10-31' } as const;
    expect(seasonSchema.safeParse(season).success).toBe(true);
    const same = seasonSchema.safeParse({ ...season, endsOn: '2030-04-01' });
    expect(same.error?.issues.map((i) => i.path)).toEqual([['endsOn']]);
    expect(seasonSchema.safeParse({ ...season, name: '  ' }).success).toBe(false);
    expect(seasonSchema.safeParse({ ...season, nameEn: '' }).error?.issues.map((i) => i.path)).toEqual([['nameEn']]);
  });

  it('names a season in the page language, the German name when it has no English one', () => {
    expect(seasonName({ name: 'Sommer 2030', name_en: 'Summer 2030' }, 'en')).toBe('Summer 2030');
    expect(seasonName({ name: 'Sommer 2030', name_en: 'Summer 2030' }, 'de')).toBe('Sommer 2030');
    expect(seasonName({ name: 'Sommer 2030', name_en: null }, 'en')).toBe('Sommer 2030');
  });

  it('prices a season by the row valid on its first day, the last added of a day first', () => {
    const rows = [
      row(1, 'summer', '2026-01-01', 9000),
      row(2, 'summer', '2027-06-01', 10000),
      row(3, 'summer', '2027-06-01', 10500),
      row(4, 'winter', '2027-01-01', 1),
    ];
    expect(priceOn(rows, 'summer', '2027-04-01')?.id).toBe(1);
    expect(priceOn(rows, 'summer', '2027-06-01')?.id).toBe(3);
    expect(priceOn(rows, 'summer', '2025-12-31')).toBeUndefined();
    expect(pricesAfter(rows, 'summer', '2027-01-01').map((r) => r.id)).toEqual([3]);
    expect(pricesAfter(rows, 'winter', '2027-01-01')).toEqual([]);
  });
});
