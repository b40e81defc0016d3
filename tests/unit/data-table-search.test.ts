import { describe, expect, it } from 'vitest';
import { hideFrom, parseHide, parsePage, parseSort, sortFrom, sortingFrom, visibilityFrom } from '@/components/ui/data-table-search';
import { parseOrdersSearch } from '@/features/harbour/orders/api/orders-search';
import { parseUsersSearch } from '@/features/admin/users/api/users-search';
import { parseCodesSearch, parseNewsSearch, parsePlacesSearch } from '@/features/admin/shared/list-search';
import { parseApplicationsSearch } from '@/features/admin/long-term/api/applications-search';

describe("the data tables' URL search params (validateSearch)", () => {
  it('keep a known sort column and direction, hidden columns and the page', () => {
    expect(parseOrdersSearch({ sort: 'price_cents.asc', hide: 'boat_name,kind', page: '2' })).toMatchObject({
      sort: 'price_cents.asc',
      hide: 'boat_name,kind',
      page: 2,
    });
    expect(parseUsersSearch({ sort: 'email.desc', role: 'harbor', state: 'inactive', hide: 'roles' })).toEqual({
      q: undefined,
      role: 'harbor',
      state: 'inactive',
      page: undefined,
      sort: 'email.desc',
      hide: 'roles',
    });
    expect(parsePlacesSearch({ sort: 'length.desc', pier: 'A', archived: '1', q: ' B0 ' })).toEqual({
      q: 'B0',
      sort: 'length.desc',
      hide: undefined,
      page: undefined,
      pier: 'A',
      archived: true,
    });
  });

  it('fall back to the defaults on bad values instead of failing', () => {
    const bad = {
      sort: 'DROP TABLE',
      hide: 42,
      page: 'zwei',
      status: 'nope',
      role: 'root',
      state: 'maybe',
      archived: 'yes please',
      q: { a: 1 },
    };
    expect(parseOrdersSearch(bad)).toEqual({});
    expect(JSON.parse(JSON.stringify(parseUsersSearch(bad)))).toEqual({});
    expect(JSON.parse(JSON.stringify(parsePlacesSearch(bad)))).toEqual({});
    expect(JSON.parse(JSON.stringify(parseNewsSearch(bad)))).toEqual({});
    expect(JSON.parse(JSON.stringify(parseCodesSearch(bad)))).toEqual({});
    expect(JSON.parse(JSON.stringify(parseApplicationsSearch(bad)))).toEqual({});
    expect(parseApplicationsSearch({ sort: 'last_name.desc', status: 'declined', hide: 'email,phone', q: ' Berg ', page: 3 })).toEqual({
      q: 'Berg',
      status: 'declined',
      page: 3,
      sort: 'last_name.desc',
      hide: 'email',
    });
    // A column another table has, a missing direction, a direction of its own.
    expect(parseOrdersSearch({ sort: 'email.asc' }).sort).toBeUndefined();
    expect(parseUsersSearch({ sort: 'email' }).sort).toBeUndefined();
    expect(parseNewsSearch({ sort: 'title.up' }).sort).toBeUndefined();
    // The default order is not written (one URL per view).
    expect(parseOrdersSearch({ sort: 'created_at.desc' }).sort).toBeUndefined();
  });

  it('keep only known hidden columns, each once, and never hide the guest link', () => {
    expect(parseOrdersSearch({ hide: 'kind,guest,bogus,kind' }).hide).toBe('kind');
    expect(parseCodesSearch({ hide: 'code,actions' }).hide).toBeUndefined();
    expect(parseHide(',,', ['a'])).toBeUndefined();
  });

  it('take pages 2 to 10000 only (page 1 is the default)', () => {
    expect(parsePage(1)).toBeUndefined();
    expect(parsePage('3')).toBe(3);
    expect(parsePage(2.5)).toBeUndefined();
    expect(parsePage(-2)).toBeUndefined();
    expect(parsePage(10001)).toBeUndefined();
    expect(parseSort('name.asc', ['name'])).toBe('name.asc');
  });

  it('turn into TanStack Table state and back', () => {
    expect(sortingFrom('price_cents.desc')).toEqual([{ id: 'price_cents', desc: true }]);
    expect(sortingFrom(undefined)).toEqual([]);
    expect(sortFrom([{ id: 'guest', desc: false }])).toBe('guest.asc');
    expect(sortFrom([])).toBeUndefined();
    expect(visibilityFrom('kind,status')).toEqual({ kind: false, status: false });
    expect(hideFrom({ kind: false, status: true, boat_name: false })).toBe('kind,boat_name');
    expect(hideFrom({ kind: true })).toBeUndefined();
  });
});
