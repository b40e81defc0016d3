/**
 * The URL search params of the small admin lists (berths, news, codes), which load every row and
 * sort, filter and page in the browser: tiny and free of feature code, since route options load
 * with the first page. Malformed values are dropped, never an error.
 */
import { parseHide, parsePage, parseSort, parseText, type TableSearch } from '@/components/ui/data-table-search';

export type ListSearch = TableSearch;

export const placeSortColumns = ['name', 'pier', 'length', 'one_day', 'archived'] as const;
export const placeHideableColumns = ['pier', 'length', 'one_day', 'archived'] as const;
export const newsSortColumns = ['title', 'starts_at', 'ends_at'] as const;
export const newsHideableColumns = ['starts_at', 'ends_at'] as const;
export const codeSortColumns = ['code', 'value'] as const;
export const codeHideableColumns = ['type', 'value'] as const;

/** Berths: ?q=&pier=&archived=1&sort=&hide=&page= */
export interface PlacesSearch extends ListSearch {
  pier?: string;
  /** Archived berths are listed too. */
  archived?: boolean;
}

const listParser =
  (sortColumns: readonly string[], hideable: readonly string[]) =>
  (search: Record<string, unknown>): ListSearch => ({
    q: parseText(search.q),
    sort: parseSort(search.sort, sortColumns),
    hide: parseHide(search.hide, hideable),
    page: parsePage(search.page),
  });

export const parseNewsSearch = listParser(newsSortColumns, newsHideableColumns);
export const parseCodesSearch = listParser(codeSortColumns, codeHideableColumns);
const parsePlacesBase = listParser(placeSortColumns, placeHideableColumns);

export function parsePlacesSearch(search: Record<string, unknown>): PlacesSearch {
  const pier = parseText(search.pier);
  return {
    ...parsePlacesBase(search),
    pier: pier && pier.length <= 20 ? pier : undefined,
    archived: search.archived === true || search.archived === 1 || search.archived === '1' || search.archived === 'true' ? true : undefined,
  };
}
