/**
 * Answers for the two public APIs the service page calls, in their documented JSON shapes
 * (PEGELONLINE REST API v2, Bright Sky). Nothing outside can be reached from the tests.
 */
import type { Page, Route } from '@playwright/test';

const HOUR = 3_600_000;

export function pegelStation(now = Date.now()) {
  return {
    uuid: '8f7e5f92-1153-4f93-acba-ca48670c8ca9',
    number: '2750010',
    shortname: 'DÜSSELDORF',
    longname: 'DÜSSELDORF',
    km: 744.2,
    agency: 'DUISBURG-MEIDERICH',
    longitude: 6.770435,
    latitude: 51.225558,
    water: { shortname: 'RHEIN', longname: 'RHEIN' },
    timeseries: [
      {
        shortname: 'W',
        longname: 'WASSERSTAND ROHDATEN',
        unit: 'cm',
        equidistance: 15,
        currentMeasurement: {
          timestamp: new Date(now - HOUR / 4).toISOString(),
          value: 312,
          trend: 1,
          stateMnwMhw: 'normal',
          stateNswHsw: 'normal',
        },
        gaugeZero: { unit: 'm. ü. NHN', value: 24.48, validFrom: '2019-11-01' },
      },
    ],
  };
}

/** 15 days of 15-minute values, rising from 250 to 312 cm. */
export function pegelMeasurements(now = Date.now()) {
  const out: { timestamp: string; value: number }[] = [];
  const n = 15 * 96;
  for (let i = 0; i < n; i++)
    out.push({ timestamp: new Date(now - ((n - i) * HOUR) / 4).toISOString(), value: Math.round(250 + (62 * i) / n) });
  return out;
}

export function brightSkyCurrent(now = Date.now()) {
  return {
    weather: {
      source_id: 238685,
      timestamp: new Date(now).toISOString(),
      cloud_cover: 50,
      condition: 'dry',
      dew_point: 6.1,
      precipitation_10: 0,
      pressure_msl: 1016.4,
      relative_humidity: 71,
      visibility: 38000,
      wind_direction_10: 240,
      wind_speed_10: 14.4,
      wind_gust_speed_10: 25.2,
      sunshine_30: 12,
      temperature: 11.3,
      icon: 'partly-cloudy-day',
    },
    sources: [
      {
        id: 238685,
        dwd_station_id: '01078',
        observation_type: 'synop',
        lat: 51.296,
        lon: 6.7686,
        height: 36.6,
        station_name: 'Düsseldorf',
        distance: 9123,
      },
    ],
  };
}

export function brightSkyHourly(now = Date.now()) {
  const start = new Date(now);
  start.setUTCHours(0, 0, 0, 0);
  const weather = [];
  for (let h = 0; h < 4 * 24; h++) {
    weather.push({
      timestamp: new Date(start.getTime() + h * HOUR).toISOString(),
      source_id: 1,
      precipitation: h % 24 === 15 ? 1.2 : 0,
      pressure_msl: 1015,
      sunshine: 30,
      temperature: 8 + 6 * Math.sin((((h % 24) - 9) / 24) * 2 * Math.PI),
      wind_direction: 250,
      wind_speed: 10 + (h % 7),
      cloud_cover: 60,
      dew_point: 5,
      relative_humidity: 75,
      visibility: 30000,
      wind_gust_direction: 250,
      wind_gust_speed: 30,
      condition: 'dry',
      precipitation_probability: 20,
      precipitation_probability_6h: 30,
      solar: 0.2,
      icon: h % 24 === 12 ? 'partly-cloudy-day' : 'cloudy',
    });
  }
  return { weather, sources: [{ id: 1, observation_type: 'forecast', station_name: 'DUESSELDORF' }] };
}

/**
 * Routes PEGELONLINE and Bright Sky to the fixtures (or to failures), and aborts every other
 * request that leaves the machine.
 */
export async function routeExternalApis(page: Page, mode: 'ok' | 'fail' = 'ok') {
  const json = (route: Route, body: unknown) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: JSON.stringify(body),
    });
  await page.route(/^https:\/\/www\.pegelonline\.wsv\.de\//, (route) => {
    if (mode === 'fail') return route.fulfill({ status: 503, headers: { 'access-control-allow-origin': '*' }, body: 'unavailable' });
    return json(route, route.request().url().includes('/measurements.json') ? pegelMeasurements() : pegelStation());
  });
  await page.route(/^https:\/\/api\.brightsky\.dev\//, (route) => {
    if (mode === 'fail') return route.abort('internetdisconnected');
    return json(route, route.request().url().includes('/current_weather') ? brightSkyCurrent() : brightSkyHourly());
  });
}
