/** ?q=&sort=&hide=&page= of the contracts table on the offers page (tiny: route options load with the first page). */
import { parseHide, parsePage, parseSort, parseText, type TableSearch } from '@/components/ui/data-table-search';

export const contractSortColumns = ['contract_number', 'holder', 'place', 'season', 'status', 'gross_cents', 'accepted_at'] as const;
export const contractHideableColumns = ['season', 'gross_cents', 'payment', 'accepted_at'] as const;

export function parseOffersSearch(search: Record<string, unknown>): TableSearch {
  return {
    q: parseText(search.q),
    sort: parseSort(search.sort, contractSortColumns),
    hide: parseHide(search.hide, contractHideableColumns),
    page: parsePage(search.page),
  };
}
