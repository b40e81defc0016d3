import { queryOptions } from '@tanstack/react-query';
import { remembering } from '@/features/service/api/last-known';

/** The Rhine gauge DÜSSELDORF (km 744.2) in the federal PEGELONLINE REST API v2. */
export const PEGEL_STATION = '8f7e5f92-1153-4f93-acba-ca48670c8ca9';
export const PEGEL_BASE = 'https://www.pegelonline.wsv.de/webservices/rest-api/v2';
/** The gauge's public page at PEGELONLINE (linked when the data cannot be loaded). */
export const PEGEL_PAGE = 'https://www.pegelonline.wsv.de/gast/stammdaten?pegelnr=2750010';

/** GET stations/{uuid}.json?includeTimeseries=true&includeCurrentMeasurement=true (documented shape, the fields we use). */
export interface PegelStation {
  uuid: string;
  shortname: string;
  km?: number;
  water?: { shortname: string; longname: string };
  timeseries?: {
    shortname: string;
    unit: string;
    currentMeasurement?: { timestamp: string; value: number; trend?: number; stateMnwMhw?: string; stateNswHsw?: string };
  }[];
}

/** GET stations/{uuid}/W/measurements.json?start=P15D: one value every 15 minutes. */
export type PegelMeasurement = { timestamp: string; value: number };

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

export interface WaterLevel {
  value: number;
  unit: string;
  timestamp: string;
  /** -1 falling, 0 steady, 1 rising (PEGELONLINE's trend). */
  trend: number;
  state?: string;
  /** Daily means of the last 15 days, oldest first. */
  days: { day: string; value: number }[];
}

/** Reduces 15-minute values to one mean per calendar day (Europe/Berlin). */
export function dailyMeans(values: PegelMeasurement[]): { day: string; value: number }[] {
  const days = new Map<string, { sum: number; n: number }>();
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });
  for (const m of values) {
    if (typeof m.value !== 'number') continue;
    const day = fmt.format(new Date(m.timestamp));
    const entry = days.get(day) ?? { sum: 0, n: 0 };
    entry.sum += m.value;
    entry.n += 1;
    days.set(day, entry);
  }
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, { sum, n }]) => ({ day, value: Math.round(sum / n) }));
}

async function fetchWaterLevel(): Promise<WaterLevel> {
  const [station, measurements] = await Promise.all([
    getJson<PegelStation>(`${PEGEL_BASE}/stations/${PEGEL_STATION}.json?includeTimeseries=true&includeCurrentMeasurement=true`),
    getJson<PegelMeasurement[]>(`${PEGEL_BASE}/stations/${PEGEL_STATION}/W/measurements.json?start=P15D`),
  ]);
  const series = station.timeseries?.find((t) => t.shortname === 'W') ?? station.timeseries?.[0];
  const current = series?.currentMeasurement;
  if (!series || !current) throw new Error('PEGELONLINE: no current measurement');
  return {
    value: current.value,
    unit: series.unit,
    timestamp: current.timestamp,
    trend: current.trend ?? 0,
    state: current.stateMnwMhw,
    days: dailyMeans(measurements).slice(-15),
  };
}

export const waterLevelQueryOptions = queryOptions({
  queryKey: ['service', 'water-level'],
  queryFn: remembering('water-level', fetchWaterLevel),
  staleTime: 15 * 60_000,
  gcTime: 60 * 60_000,
  retry: 1,
});
