/** The public face of features/harbour/extras: what other features may use (docs/architecture.md, "Boundaries"). */
export {
  depositRefundsDueQueryOptions,
  deskReceiptsQueryOptions,
  deskSaleStateQueryOptions,
  extrasCatalogueQueryOptions,
  extrasKeys,
  orderExtrasQueryOptions,
  useCancelDeskSale,
  useExtrasAction,
  useSellAtDesk,
} from '@/features/harbour/extras/api/extras';
export type { ExtrasAction, OrderExtra } from '@/features/harbour/extras/api/extras';
export { useExtraName, useExtraUnitLabel } from '@/features/harbour/extras/components/extras-labels';
export { addExtraSchema, deskQuantity, deskSaleSchema } from '@/features/harbour/extras/schemas/extras';
export type { AddExtraInput, AddExtraValues, DeskSaleInput, DeskSaleValues } from '@/features/harbour/extras/schemas/extras';
