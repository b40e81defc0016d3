/** Query keys of the seasons page; its mutations invalidate the prefix. */
export const seasonKeys = {
  all: ['admin', 'seasons'] as const,
  seasons: () => [...seasonKeys.all, 'seasons'] as const,
  prices: () => [...seasonKeys.all, 'prices'] as const,
};
