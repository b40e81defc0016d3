import { describe, expect, it } from 'vitest';
import { parseOrdersSearch } from '@/features/harbour/orders/api/orders-search';

describe('the order list search params (validateSearch)', () => {
  it('keeps valid filters, search and page', () => {
    expect(
      parseOrdersSearch({ status: 'cancelled', kind: 'day', from: '2026-12-01', to: '2026-12-31', q: '  Rheinperle ', page: 3 }),
    ).toEqual({
      status: 'cancelled',
      kind: 'day',
      from: '2026-12-01',
      to: '2026-12-31',
      q: 'Rheinperle',
      page: 3,
    });
  });

  it('drops unknown statuses and kinds, malformed days and pages, and page 1', () => {
    expect(parseOrdersSearch({ status: 'bogus', kind: 'long_term', from: 'not-a-date', to: '2026-13-45', page: 'abc' })).toEqual({
      status: undefined,
      kind: undefined,
      from: undefined,
      to: undefined,
      q: undefined,
      page: undefined,
    });
    expect(parseOrdersSearch({ from: '2026-02-30' }).from).toBeUndefined();
    expect(parseOrdersSearch({ page: 1 }).page).toBeUndefined();
    expect(parseOrdersSearch({ page: 2.5 }).page).toBeUndefined();
    expect(parseOrdersSearch({ page: -4 }).page).toBeUndefined();
  });

  it('takes a number the router parsed from ?q=123 as text and cuts the search at 100 characters', () => {
    expect(parseOrdersSearch({ q: 4711 }).q).toBe('4711');
    expect(parseOrdersSearch({ q: 'x'.repeat(150) }).q).toHaveLength(100);
    expect(parseOrdersSearch({ q: '   ' }).q).toBeUndefined();
  });
});
