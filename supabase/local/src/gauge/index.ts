import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../context.ts';
import { readBody, sendJson } from '../http.ts';

/**
 * The gauge sandbox (docs/adr/0053-rhine-gauge-and-harbour-status.md): PEGELONLINE's REST API v2
 * as far as the app and fetch-gauge use it, for the Rhine gauge DÜSSELDORF only, answering from a
 * river that tests and `npm start` set (`PUT /__sandbox/gauge`, or `set()` in the same process),
 * as the payment sandbox answers for Stripe. Production calls the real service.
 */

/** The Düsseldorf gauge in PEGELONLINE (the same uuid as the app's src/features/service/api/pegelonline.ts). */
export const DUSSELDORF = '8f7e5f92-1153-4f93-acba-ca48670c8ca9';
export const API_PREFIX = '/webservices/rest-api/v2';
export const CONTROL_PATH = '/__sandbox/gauge';

export interface GaugeState {
  /** The level now, in cm at the gauge. */
  level_cm: number;
  /** PEGELONLINE's trend: -1 falling, 0 steady, 1 rising. */
  trend: -1 | 0 | 1;
  /** The forecast run: points some hours ahead of its run time; null answers the WV series with 404 (none offered). */
  forecast: { hours: number; level_cm: number }[] | null;
  /** True: every API request answers 503, as when the service is down. */
  offline: boolean;
}

export interface GaugeSandboxOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  log?: Logger;
  /** The sandbox's clock (tests); default Date.now. */
  now?: () => number;
  /** The starting river (default: 412 cm, steady, a flat four-day forecast). */
  initial?: Partial<GaugeState>;
}

export interface GaugeSandbox {
  url: string;
  port: number;
  /** The API's base, as fetch-gauge's PEGELONLINE_URL. */
  apiUrl: string;
  state(): GaugeState;
  /** Changes what the river does from now on (fields left out keep their value). */
  set(change: Partial<GaugeState>): GaugeState;
  close(): Promise<void>;
}

/** PEGELONLINE_URL for the edge functions: the sandbox, unless functions/.env names a service. */
export function gaugeEnvironment(env: Record<string, string>, gaugeApiUrl: string | undefined): Record<string, string> {
  if (!gaugeApiUrl || env.PEGELONLINE_URL) return {};
  return { PEGELONLINE_URL: gaugeApiUrl };
}

const QUARTER_HOUR = 15 * 60_000;
const HOUR = 60 * 60_000;

/** A flat forecast every two hours for four days (forecast for two days, then estimate, as the WV series gives). */
export function flatForecast(levelCm: number): { hours: number; level_cm: number }[] {
  return Array.from({ length: 48 }, (_, i) => ({ hours: (i + 1) * 2, level_cm: levelCm }));
}

/** An instant as PEGELONLINE writes it: local time in Germany with its offset, e.g. 2027-01-10T14:00:00+01:00. */
export function berlinIso(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  const offset = Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offset >= 0 ? '+' : '-';
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${sign}${hh}:${mm}`;
}

function validState(body: unknown): Partial<GaugeState> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('body must be a JSON object');
  const b = body as Record<string, unknown>;
  const out: Partial<GaugeState> = {};
  if ('level_cm' in b) {
    if (typeof b.level_cm !== 'number' || !Number.isInteger(b.level_cm) || b.level_cm < -100 || b.level_cm > 2000)
      throw new Error('level_cm: a whole number of cm between -100 and 2000');
    out.level_cm = b.level_cm;
  }
  if ('trend' in b) {
    if (b.trend !== -1 && b.trend !== 0 && b.trend !== 1) throw new Error('trend: -1, 0 or 1');
    out.trend = b.trend;
  }
  if ('offline' in b) {
    if (typeof b.offline !== 'boolean') throw new Error('offline: true or false');
    out.offline = b.offline;
  }
  if ('forecast' in b) {
    if (b.forecast === null) out.forecast = null;
    else if (
      Array.isArray(b.forecast) &&
      b.forecast.every(
        (p) =>
          p &&
          typeof p === 'object' &&
          typeof (p as Record<string, unknown>).hours === 'number' &&
          (p as { hours: number }).hours > 0 &&
          Number.isInteger((p as Record<string, unknown>).level_cm),
      )
    )
      out.forecast = (b.forecast as { hours: number; level_cm: number }[]).map((p) => ({ hours: p.hours, level_cm: p.level_cm }));
    else throw new Error('forecast: null or [{hours > 0, level_cm}]');
  }
  return out;
}

export async function startGaugeSandbox(options: GaugeSandboxOptions): Promise<GaugeSandbox> {
  const now = options.now ?? Date.now;
  const initialLevel = options.initial?.level_cm ?? 412;
  let state: GaugeState = {
    level_cm: initialLevel,
    trend: 0,
    forecast: flatForecast(initialLevel),
    offline: false,
    ...options.initial,
  };
  // The forecast is computed at full hours (PEGELONLINE's `initialized`): the run of the last hour
  // that began at or after the river was last set, so a change makes a new run.
  let setAt = now();

  const measuredAt = () => Math.floor(now() / QUARTER_HOUR) * QUARTER_HOUR;
  const current = () => ({
    timestamp: berlinIso(measuredAt()),
    value: state.level_cm,
    trend: state.trend,
    stateMnwMhw: state.level_cm >= 710 ? 'high' : 'normal',
    stateNswHsw: state.level_cm >= 880 ? 'high' : 'normal',
  });
  const forecast = () => {
    const initialized = Math.max(Math.floor(now() / HOUR) * HOUR, Math.floor(setAt / 1000) * 1000);
    return (state.forecast ?? []).map((p) => ({
      initialized: berlinIso(initialized),
      timestamp: berlinIso(initialized + p.hours * HOUR),
      value: p.level_cm,
      type: p.hours <= 48 ? 'forecast' : 'estimate',
    }));
  };
  const station = (url: URL) => ({
    uuid: DUSSELDORF,
    number: '2750010',
    shortname: 'DÜSSELDORF',
    longname: 'DÜSSELDORF',
    km: 744.2,
    agency: 'WSA RHEIN',
    longitude: 6.770455,
    latitude: 51.22567,
    water: { shortname: 'RHEIN', longname: 'RHEIN' },
    ...(url.searchParams.get('includeTimeseries') === 'true'
      ? {
          timeseries: [
            {
              shortname: 'W',
              longname: 'WASSERSTAND ROHDATEN',
              unit: 'cm',
              equidistance: 15,
              ...(url.searchParams.get('includeCurrentMeasurement') === 'true' ? { currentMeasurement: current() } : {}),
            },
          ],
        }
      : {}),
  });
  // W/measurements.json?start=P<n>D: every 15 minutes the level as set (the sandbox has no past).
  const measurements = (url: URL) => {
    const days = Number(/^P(\d{1,2})D$/.exec(url.searchParams.get('start') ?? 'P1D')?.[1] ?? 1);
    const end = measuredAt();
    const out: { timestamp: string; value: number }[] = [];
    for (let t = end - Math.min(days, 31) * 24 * HOUR; t <= end; t += QUARTER_HOUR)
      out.push({ timestamp: berlinIso(t), value: state.level_cm });
    return out;
  };

  const api = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (req.method !== 'GET') return sendJson(res, 405, { status: 405, message: 'Method not allowed' });
    if (state.offline) return sendJson(res, 503, { status: 503, message: 'Service unavailable (gauge sandbox offline)' });
    const path = url.pathname.slice(API_PREFIX.length);
    const match = /^\/stations\/([^/]+?)(?:\/(W|WV)\/(currentmeasurement|measurements))?\.json$/.exec(path);
    if (!match || decodeURIComponent(match[1]).toUpperCase() !== DUSSELDORF.toUpperCase())
      return sendJson(res, 404, { status: 404, message: 'Not found' });
    const [, , series, resource] = match;
    if (!series) return sendJson(res, 200, station(url));
    if (series === 'W' && resource === 'currentmeasurement') return sendJson(res, 200, current());
    if (series === 'W') return sendJson(res, 200, measurements(url));
    if (resource === 'measurements' && state.forecast) return sendJson(res, 200, forecast());
    return sendJson(res, 404, { status: 404, message: 'Not found' });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The app's service page calls the API from the browser.
    res.setHeader('access-control-allow-origin', '*');
    const handle = async () => {
      if (url.pathname.startsWith(API_PREFIX + '/')) return api(req, res, url);
      if (url.pathname === CONTROL_PATH && req.method === 'GET') return sendJson(res, 200, state);
      if (url.pathname === CONTROL_PATH && (req.method === 'PUT' || req.method === 'POST')) {
        let change: Partial<GaugeState>;
        try {
          change = validState(JSON.parse((await readBody(req, 64 * 1024)).toString('utf8') || '{}'));
        } catch (error) {
          return sendJson(res, 400, { message: (error as Error).message });
        }
        return sendJson(res, 200, set(change));
      }
      return sendJson(res, 404, { status: 404, message: 'Not found' });
    };
    handle().catch((error) => {
      options.log?.error(`gauge sandbox: ${req.method} ${url.pathname}: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) sendJson(res, 500, { status: 500, message: 'gauge sandbox error' });
    });
  });

  function set(change: Partial<GaugeState>): GaugeState {
    state = { ...state, ...change };
    // A new run per change, also for two changes within one second (PEGELONLINE's times are in
    // whole seconds; the same second would merge the two runs' points into one).
    setAt = Math.max(now(), Math.floor(setAt / 1000) * 1000 + 1000);
    return state;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host}:${port}`;
  return {
    url,
    port,
    apiUrl: url + API_PREFIX,
    state: () => state,
    set,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
