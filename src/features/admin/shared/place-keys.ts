/** Query keys of the admin berth, column and map pages; mutations invalidate by prefix. */
export const adminPlaceKeys = {
  all: ['admin-places'] as const,
  list: () => ['admin-places', 'list'] as const,
  place: (id: string) => ['admin-places', 'place', id] as const,
  photos: (id: string) => ['admin-places', 'photos', id] as const,
  columns: () => ['admin-places', 'columns'] as const,
  column: (id: string) => ['admin-places', 'column', id] as const,
  holders: (placeId: string) => ['admin-places', 'holders', placeId] as const,
  applications: () => ['admin-places', 'applications'] as const,
  /** Under the harbour prefix, so the harbour calendar's realtime invalidation refreshes the map too. */
  map: (day: string) => ['harbour', 'admin-map', day] as const,
  users: (q: string) => ['admin-places', 'users', q] as const,
};
