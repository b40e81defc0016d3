/**
 * The offers page's URL: ?q=&sort=&hide=&page=&status= of the contracts table, and ?place=&season=
 * to open the composer on a berth and season (the links from the waiting list and the berth's
 * holders). Tiny: route options load with the first page.
 */
import { parseHide, parseOneOf, parsePage, parseSort, parseText, type TableSearch } from '@/components/ui/data-table-search';

export const contractSortColumns = [
  'contract_number',
  'holder',
  'place',
  'season',
  'status',
  'gross_cents',
  'balance_cents',
  'accepted_at',
] as const;
export const contractHideableColumns = ['season', 'gross_cents', 'balance_cents', 'payment', 'accepted_at'] as const;
export const contractStatuses = ['active', 'noticed', 'ended'] as const;
export type ContractStatus = (typeof contractStatuses)[number];

export interface OffersSearch extends TableSearch {
  status?: ContractStatus;
  place?: string;
  season?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const parseId = (value: unknown): string | undefined => (typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined);

export function parseOffersSearch(search: Record<string, unknown>): OffersSearch {
  return {
    q: parseText(search.q),
    sort: parseSort(search.sort, contractSortColumns),
    hide: parseHide(search.hide, contractHideableColumns),
    page: parsePage(search.page),
    status: parseOneOf(search.status, contractStatuses),
    place: parseId(search.place),
    season: parseId(search.season),
  };
}
