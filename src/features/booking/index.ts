/** The public face of features/booking: what other features may use (docs/architecture.md, "Boundaries"). */
export { quoteQueryOptions } from '@/features/booking/api/quote-booking';
export { searchPlacesQueryOptions } from '@/features/booking/api/search-places';
export type { PlaceResult } from '@/features/booking/api/types';
export { CancellationPolicyNote } from '@/features/booking/components/cancellation-policy-note';
export { BERTH, ColumnMarker, HarbourPlan, PLAN } from '@/features/booking/components/harbour-plan';
export { StepBerthData } from '@/features/booking/components/step-berth-data';
export { StepChooseBerth, useStayText } from '@/features/booking/components/step-choose-berth';
export { emptyBerthData, parseDecimal, stayParams } from '@/features/booking/schemas/berth-data';
export type { BerthDataValues } from '@/features/booking/schemas/berth-data';
