import { queryOptions } from '@tanstack/react-query';
import { remembering } from '@/features/service/api/last-known';

/** Bright Sky (DWD open data, no key) for the harbour on the Rhine in Düsseldorf. */
export const BRIGHTSKY_BASE = 'https://api.brightsky.dev';
export const HARBOUR_POSITION = { lat: 51.215, lon: 6.75 };
/** The source's public site, the Deutscher Wetterdienst (linked when the data cannot be loaded). */
export const WEATHER_PAGE = 'https://www.dwd.de/';

/** GET /current_weather: the fields we use of the documented `weather` object. */
export interface BrightSkyCurrent {
  weather: {
    timestamp: string;
    temperature: number | null;
    wind_speed_10?: number | null;
    wind_direction_10?: number | null;
    precipitation_10?: number | null;
    relative_humidity?: number | null;
    condition?: string | null;
    icon?: string | null;
  };
}

/** GET /weather?date=..&last_date=..: hourly records. */
export interface BrightSkyHourly {
  weather: {
    timestamp: string;
    temperature: number | null;
    precipitation: number | null;
    wind_speed: number | null;
    icon?: string | null;
  }[];
}

export interface DayForecast {
  day: string;
  min: number;
  max: number;
  precipitation: number;
  wind: number;
  icon: string;
}

export interface Weather {
  current: BrightSkyCurrent['weather'];
  days: DayForecast[];
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

const berlinDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Hourly records to one line per day: min/max temperature, rain sum, strongest wind, the midday icon. */
export function summariseDays(records: BrightSkyHourly['weather']): DayForecast[] {
  const byDay = new Map<string, BrightSkyHourly['weather']>();
  for (const r of records) {
    const day = berlinDay.format(new Date(r.timestamp));
    byDay.set(day, [...(byDay.get(day) ?? []), r]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, rs]) => {
      const temps = rs.map((r) => r.temperature).filter((v): v is number => typeof v === 'number');
      const midday = rs[Math.floor(rs.length / 2)];
      return {
        day,
        min: Math.round(Math.min(...temps)),
        max: Math.round(Math.max(...temps)),
        precipitation: Math.round(rs.reduce((s, r) => s + (r.precipitation ?? 0), 0) * 10) / 10,
        wind: Math.round(Math.max(0, ...rs.map((r) => r.wind_speed ?? 0))),
        icon: midday?.icon ?? 'cloudy',
      };
    })
    .filter((d) => Number.isFinite(d.min));
}

async function fetchWeather(): Promise<Weather> {
  const { lat, lon } = HARBOUR_POSITION;
  const today = berlinDay.format(new Date());
  const last = berlinDay.format(new Date(Date.now() + 3 * 86_400_000));
  const [current, hourly] = await Promise.all([
    getJson<BrightSkyCurrent>(`${BRIGHTSKY_BASE}/current_weather?lat=${lat}&lon=${lon}&tz=Europe/Berlin`),
    getJson<BrightSkyHourly>(`${BRIGHTSKY_BASE}/weather?lat=${lat}&lon=${lon}&date=${today}&last_date=${last}&tz=Europe/Berlin`),
  ]);
  return { current: current.weather, days: summariseDays(hourly.weather).slice(0, 4) };
}

export const weatherQueryOptions = queryOptions({
  queryKey: ['service', 'weather'],
  queryFn: remembering('weather', fetchWeather),
  staleTime: 15 * 60_000,
  gcTime: 60 * 60_000,
  retry: 1,
});
