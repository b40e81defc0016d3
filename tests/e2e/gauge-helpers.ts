/**
 * The river in the browser tests (issue 43, ADR 0053): sets the gauge sandbox and runs the
 * stack's gauge job at once (the test server's control), as fetch-gauge does every 15 minutes.
 * A spec that imports this module runs in the `river` project: after all others, one at a time
 * (playwright.config.ts).
 */
import { expect } from '@playwright/test';
import { GAUGE_FETCH_PATH } from './control.ts';
import { E2E_CONTROL_URL, E2E_GAUGE_URL } from './ports.ts';

export interface RiverState {
  level_cm: number;
  trend: number;
  /** Forecast points, hours from now; null: the service offers no forecast (404). */
  forecast: { hours: number; level_cm: number }[] | null;
  offline: boolean;
}

/** `PUT /__sandbox/gauge` with `body`, then the gauge job; fails unless both answer 200. */
export async function river(body: RiverState) {
  const set = await fetch(`${E2E_GAUGE_URL}/__sandbox/gauge`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(set.status).toBe(200);
  const fetched = await fetch(`${E2E_CONTROL_URL}${GAUGE_FETCH_PATH}`, { method: 'POST' });
  expect(fetched.status, await fetched.clone().text()).toBe(200);
}

/** A flat forecast at one level, every two hours for four days (the sandbox's default shape). */
export const flatForecast = (level_cm: number) => Array.from({ length: 48 }, (_, i) => ({ hours: (i + 1) * 2, level_cm }));

/** A normal river (4.12 m, steady, four flat days): what the other tests expect; set back after a rise. */
export const normalRiver: RiverState = { level_cm: 412, trend: 0, forecast: flatForecast(412), offline: false };

/** Sets the river back to normal. */
export const calmRiver = () => river(normalRiver);
