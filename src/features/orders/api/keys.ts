/** Query keys of the orders feature; mutations invalidate by prefix. */
export const orderKeys = {
  all: ['orders'] as const,
  detail: (id: string) => ['orders', 'detail', id] as const,
  payments: (id: string) => ['orders', 'payments', id] as const,
  balance: (id: string) => ['orders', 'balance', id] as const,
  documents: (orderId: string) => ['orders', 'documents', orderId] as const,
  document: (id: string) => ['orders', 'document', id] as const,
  arrivingToday: () => ['orders', 'arriving-today'] as const,
  harbourAccess: () => ['orders', 'harbour-access'] as const,
  closureNotice: (orderId: string) => ['orders', 'closure-notice', orderId] as const,
};
