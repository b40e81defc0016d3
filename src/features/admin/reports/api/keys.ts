/** Query keys of the admin reports; one entry per date range. */
export const reportKeys = {
  all: ['admin', 'reports'] as const,
  range: (from: string, to: string) => ['admin', 'reports', from, to] as const,
};
