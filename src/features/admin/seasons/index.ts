/** The public face of features/admin/seasons: what other features may use (docs/architecture.md, "Boundaries"). */
export { longTermPricesQueryOptions, priceOn, seasonName, seasonsQueryOptions, SEASON_KINDS } from '@/features/admin/seasons/api/seasons';
export type { LongTermPrice, PriceBasis, Season, SeasonKind } from '@/features/admin/seasons/api/seasons';
