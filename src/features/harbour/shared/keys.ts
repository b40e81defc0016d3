/** Query keys of the harbour (back-office) feature; realtime and mutations invalidate by prefix. */
export const harbourKeys = {
  all: ['harbour'] as const,
  calendars: () => ['harbour', 'calendar'] as const,
  calendar: (from: string, to: string, block: string) => ['harbour', 'calendar', from, to, block] as const,
  calendarPlaces: () => ['harbour', 'calendar-places'] as const,
  overview: () => ['harbour', 'overview'] as const,
  closureStays: () => ['harbour', 'overview', 'closure-stays'] as const,
};
