/** The public face of features/harbour/shared: what other features may use (docs/architecture.md, "Boundaries"). */
export { useCalendarRealtime } from '@/features/harbour/shared/use-calendar-realtime';
