/** The public face of features/harbour/calendar: what other features may use (docs/architecture.md, "Boundaries"). */
export { calendarEntries, calendarPlaces } from '@/features/harbour/calendar/api/calendar';
export type { CalendarEntry, CalendarView } from '@/features/harbour/calendar/api/calendar';
export { CalendarPage } from '@/features/harbour/calendar/components/calendar-page';
