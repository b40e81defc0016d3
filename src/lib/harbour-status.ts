import { queryOptions } from '@tanstack/react-query';
import { fetchPublicRpc } from '@/lib/harbour-intro';

/**
 * One row of harbour_status() (supabase/schemas/48_rhine_gauge.sql, docs/adr/0053): first `now`
 * (the last known level of the Düsseldorf gauge with its measurement time), then each forecast day.
 */
export type HarbourStatusKind = 'open' | 'restricted' | 'closed';
/** (Written out: the generated types cannot say which columns of a function's table may be null.) */
export interface HarbourStatusRow {
  kind: 'now' | 'forecast';
  /** The Berlin day (yyyy-MM-dd). */
  day: string;
  /** Null: no level known yet. */
  status: HarbourStatusKind | null;
  level_cm: number | null;
  /** now: when the level was measured; forecast: when the day's highest level is expected. */
  at: string | null;
  forecast_initialized_at: string | null;
  override_status: HarbourStatusKind | null;
  override_reason: string | null;
  restricted_from_cm: number;
  closed_from_cm: number;
}

/** The harbour status for everyone (empty while the function does not exist). */
const fetchHarbourStatus = async () => (await fetchPublicRpc<HarbourStatusRow[]>('harbour_status')) ?? [];

export const harbourStatusKeys = { all: ['harbour-status'] as const };

export const harbourStatusQueryOptions = queryOptions({
  queryKey: harbourStatusKeys.all,
  queryFn: fetchHarbourStatus,
  staleTime: 5 * 60_000,
});

/** A level in cm as metres for people: 712 → "7,12 m" / "7.12 m". */
export function formatLevel(levelCm: number, locale: string): string {
  return `${(levelCm / 100).toLocaleString(locale === 'en' ? 'en-GB' : 'de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} m`;
}
