/** The public face of features/prices: what other features may use (docs/architecture.md, "Boundaries"). */
export { ListPrices } from '@/features/prices/components/list-prices';
