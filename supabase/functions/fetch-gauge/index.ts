/**
 * fetch-gauge: records the Rhine's level at the Düsseldorf gauge and, where PEGELONLINE offers
 * one, its forecast run (docs/adr/0053-rhine-gauge-and-harbour-status.md).
 *
 * Called every 15 minutes by pg_cron + pg_net (99_cron.sql, private.request_gauge_fetch) or by
 * hand. Reads `W/currentmeasurement.json` and `WV/measurements.json` of the station from
 * PEGELONLINE_URL (the stack's gauge sandbox locally; unset: the real service) and hands both to
 * public.record_gauge_reading as the service role (the only role that may record a level). A
 * forecast answered 404 is "none offered". When the service does not answer, nothing is
 * recorded: the database keeps the last known level with its time.
 *
 * Answers 200 {recorded, measured_at, level_cm, forecast_points}; 502 {error: 'gauge_unavailable'}
 * when PEGELONLINE fails; 503 when the database cannot be reached.
 * Environment: SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, PEGELONLINE_URL (optional).
 */
import { json, notPost, refusal, rpc, serve } from '../_shared/api.ts';

const DEFAULT_BASE = 'https://www.pegelonline.wsv.de/webservices/rest-api/v2';
/** DÜSSELDORF, Rhein-km 744.2 (Pegelnummer 2750010). */
const STATION = '8f7e5f92-1153-4f93-acba-ca48670c8ca9';
const TIMEOUT_MS = 10_000;

interface Current {
  timestamp: string;
  value: number;
  trend?: number;
}
interface ForecastPoint {
  initialized: string;
  timestamp: string;
  value: number;
  type?: string;
}

class Unavailable extends Error {}

async function getJson<T>(url: string, notFoundIsNull = false): Promise<T | null> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new Unavailable(`${url}: ${(error as Error).message}`);
  }
  if (notFoundIsNull && res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Unavailable(`${url}: HTTP ${res.status}`);
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new Unavailable(`${url}: not JSON`);
  }
}

const isCurrent = (c: unknown): c is Current =>
  !!c && typeof (c as Current).timestamp === 'string' && typeof (c as Current).value === 'number' && Number.isFinite((c as Current).value);

serve(async (req) => {
  const early = notPost(req);
  if (early) return early;
  const base = (Deno.env.get('PEGELONLINE_URL') || DEFAULT_BASE).replace(/\/$/, '');
  const station = `${base}/stations/${STATION}`;
  let current: Current | null;
  let forecast: ForecastPoint[] | null = null;
  try {
    current = await getJson<Current>(`${station}/W/currentmeasurement.json`);
    if (!isCurrent(current)) throw new Unavailable('PEGELONLINE: no current measurement');
    try {
      const answer = await getJson<ForecastPoint[]>(`${station}/WV/measurements.json`, true);
      forecast = Array.isArray(answer) ? answer : null;
    } catch (error) {
      // The forecast is a bonus: without it the level is still recorded (the last run stays).
      if (!(error instanceof Unavailable)) throw error;
      console.warn(`fetch-gauge: no forecast (${error.message})`);
    }
  } catch (error) {
    if (!(error instanceof Unavailable)) throw error;
    console.warn(`fetch-gauge: ${error.message}; the last known level stays`);
    return json(502, { error: 'gauge_unavailable' });
  }
  const trend = current.trend === -1 || current.trend === 0 || current.trend === 1 ? current.trend : null;
  const recorded = await rpc<boolean>(
    'record_gauge_reading',
    { p_measured_at: current.timestamp, p_level_cm: Math.round(current.value), p_trend: trend, p_forecast: forecast },
    'service_role',
  );
  if (!recorded.ok) return refusal(recorded);
  return json(200, {
    recorded: recorded.data,
    measured_at: current.timestamp,
    level_cm: Math.round(current.value),
    forecast_points: forecast?.length ?? 0,
  });
});
