/** Query keys of the booking feature; mutations invalidate by prefix. */
export const bookingKeys = {
  all: ['booking'] as const,
  search: (params: object) => ['booking', 'search', params] as const,
  harbour: (params: object) => ['booking', 'harbour', params] as const,
  quote: (params: object) => ['booking', 'quote', params] as const,
  depthNotice: (params: object) => ['booking', 'depth-notice', params] as const,
  fairPeriods: () => ['booking', 'fair-periods'] as const,
  paymentTerms: (kind: string) => ['booking', 'payment-terms', kind] as const,
  profile: (userId: string) => ['booking', 'profile', userId] as const,
  photos: (placeIds: readonly string[]) => ['booking', 'photos', placeIds] as const,
  plan: () => ['booking', 'plan'] as const,
};
