/** Query keys of the harbour (back-office) feature; realtime and mutations invalidate by prefix. */
export const harbourKeys = {
  all: ['harbour'] as const,
  calendars: () => ['harbour', 'calendar'] as const,
  calendar: (from: string, to: string) => ['harbour', 'calendar', from, to] as const,
  overview: () => ['harbour', 'overview'] as const,
};
