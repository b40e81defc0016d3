/** The Rhine as the browser tests play it: the gauge sandbox's river, recorded at once. */
import { expect } from '@playwright/test';
import { E2E_CONTROL_URL, E2E_GAUGE_URL } from './ports.ts';
import { GAUGE_FETCH_PATH } from './control.ts';

/** Sets the sandbox's river (PUT /__sandbox/gauge) and runs the stack's gauge job now. */
export async function river(body: Record<string, unknown>) {
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
