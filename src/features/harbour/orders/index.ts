/** The public face of features/harbour/orders: what other features may use (docs/architecture.md, "Boundaries"). */
export { rescheduleQuoteQueryOptions, useOrderAction } from '@/features/harbour/orders/api/orders';
