/** The public face of features/orders: what other features may use (docs/architecture.md, "Boundaries"). */
export { currentInvoice, fetchOrderDocuments, invoiceDocumentQueryOptions } from '@/features/orders/api/invoices';
export type { InvoiceDocument, InvoiceDocumentSummary } from '@/features/orders/api/invoices';
export { orderKeys } from '@/features/orders/api/keys';
export { fetchOrderBalance, fetchOrderPayments } from '@/features/orders/api/payments';
export type { Order, OrderBalance, OrderJson, OrderStatus, Payment, PaymentMethod, PaymentStatus } from '@/features/orders/api/types';
export { InvoiceDocumentView, OrderDocumentsList, useInvoiceKindLabel } from '@/features/orders/components/invoice-document';
export { OrderStatusBadge, usePaymentMethodLabel } from '@/features/orders/components/order-status';
