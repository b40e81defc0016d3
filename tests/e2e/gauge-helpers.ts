/**
 * The river for browser tests (docs/adr/0053): sets the gauge sandbox and has the stack's gauge
 * job record it at once (the test server's control), as fetch-gauge does every 15 minutes.
 */
import { expect } from '@playwright/test';
import { E2E_CONTROL_URL, E2E_GAUGE_URL } from './ports.ts';
import { GAUGE_FETCH_PATH } from './control.ts';

export interface RiverState {
  level_cm: number;
  trend: number;
  /** Forecast points, hours from now; null: the service offers no forecast (404). */
  forecast: { hours: number; level_cm: number }[] | null;
  offline: boolean;
}

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

/** The sandbox's default river (412 cm, steady, a flat forecast of four days): what other tests expect. */
export const calmRiver = () =>
  river({
    level_cm: 412,
    trend: 0,
    forecast: Array.from({ length: 48 }, (_, i) => ({ hours: (i + 1) * 2, level_cm: 412 })),
    offline: false,
  });
