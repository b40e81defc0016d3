/**
 * The gauge sandbox and fetch-gauge (issue 43 item 1, docs/adr/0053): the sandbox answers in
 * PEGELONLINE's shape for the Düsseldorf gauge only, and its control sets the river; the stack's
 * scheduled job (99_cron.sql, every 15 minutes; here asked for at once through
 * private.request_gauge_fetch and pg_net) runs fetch-gauge, which records level and forecast;
 * a river over mark II closes the harbour now and on the forecast day; without a forecast the
 * level is still recorded; when the service is down nothing changes: the last known level stays
 * with its time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses } from './harness/offline.ts';
import { berlinIso, DUSSELDORF } from '../src/gauge/index.ts';
import type { Stack } from '../src/stack.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

interface StatusRow {
  kind: string;
  day: string;
  status: string | null;
  level_cm: number | null;
  at: string | null;
}

const engine = engines()[0];
const suite = `gauge sandbox and fetch-gauge on ${engine.name}`;
describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
  let stack: Stack;

  /** What the scheduled job does: pg_net asks fetch-gauge; answers its HTTP status. */
  async function fetchGauge(): Promise<{ status: number | null; body: Record<string, unknown> | null }> {
    const { rows } = await stack.db.query<{ id: string }>(`select private.request_gauge_fetch()::text as id`);
    await stack.context.scheduler!.drain();
    const reply = await stack.db.query<{ status_code: number | null; content: string | null }>(
      `select status_code, content from net._http_response where id = $1::bigint`,
      [rows[0].id],
    );
    const r = reply.rows[0];
    return { status: r?.status_code ?? null, body: r?.content ? (JSON.parse(r.content) as Record<string, unknown>) : null };
  }
  /** harbour_status() as everyone reads it: over the REST API with the anon key. */
  async function status(): Promise<StatusRow[]> {
    const res = await fetch(`${stack.url}/rest/v1/rpc/harbour_status`, {
      method: 'POST',
      headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    return (await res.json()) as StatusRow[];
  }
  const api = (path: string) => fetch(`${stack.gauge.apiUrl}${path}`);
  const control = (body: unknown) =>
    fetch(`${stack.gauge.url}/__sandbox/gauge`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('answers in PEGELONLINE shape for the Düsseldorf gauge, and 404 for another station', async () => {
    const current = await api(`/stations/${DUSSELDORF}/W/currentmeasurement.json`);
    expect(current.status).toBe(200);
    const body = (await current.json()) as { timestamp: string; value: number; trend: number };
    expect(body).toMatchObject({ value: 412, trend: 0 });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:(00|15|30|45):00\+0[12]:00$/);
    const station = (await (await api(`/stations/${DUSSELDORF}.json?includeTimeseries=true&includeCurrentMeasurement=true`)).json()) as {
      shortname: string;
      timeseries: { shortname: string; unit: string; currentMeasurement: { value: number } }[];
    };
    expect(station.shortname).toBe('DÜSSELDORF');
    expect(station.timeseries[0]).toMatchObject({ shortname: 'W', unit: 'cm', currentMeasurement: { value: 412 } });
    const forecast = (await (await api(`/stations/${DUSSELDORF}/WV/measurements.json`)).json()) as { type: string }[];
    expect(forecast).toHaveLength(48);
    expect(forecast[0]).toMatchObject({ value: 412, type: 'forecast' });
    expect(forecast[47]).toMatchObject({ type: 'estimate' });
    expect((await api('/stations/00000000-0000-0000-0000-000000000000/W/currentmeasurement.json')).status).toBe(404);
    expect((await control({ level_cm: 'high' })).status).toBe(400);
    // Each change is a run of its own, also two within one second (they would merge otherwise).
    const runs = new Set<string>();
    for (const level_cm of [500, 412]) {
      expect((await control({ level_cm })).status).toBe(200);
      runs.add(((await (await api(`/stations/${DUSSELDORF}/WV/measurements.json`)).json()) as { initialized: string }[])[0]!.initialized);
    }
    expect(runs.size).toBe(2);
    // Winter and summer time as PEGELONLINE writes them.
    expect(berlinIso(Date.parse('2027-01-10T13:00:00Z'))).toBe('2027-01-10T14:00:00+01:00');
    expect(berlinIso(Date.parse('2027-07-10T12:00:00Z'))).toBe('2027-07-10T14:00:00+02:00');
  });

  it('the job is scheduled every 15 minutes', async () => {
    const { rows } = await stack.db.query<{ schedule: string; command: string }>(
      `select schedule, command from cron.job where jobname = 'fetch-gauge'`,
    );
    expect(rows).toEqual([{ schedule: '*/15 * * * *', command: 'select private.request_gauge_fetch()' }]);
  });

  it('a rise over mark II, played by the sandbox, closes the harbour now and on the forecast day', async () => {
    expect((await control({ level_cm: 905, trend: 1, forecast: [{ hours: 30, level_cm: 960 }], offline: false })).status).toBe(200);
    const fetched = await fetchGauge();
    expect(fetched).toMatchObject({ status: 200, body: { recorded: true, level_cm: 905, forecast_points: 1 } });
    const rows = await status();
    expect(rows[0]).toMatchObject({ kind: 'now', status: 'closed', level_cm: 905 });
    expect(Date.parse(rows[0].at!)).toBe(Date.parse(fetched.body!.measured_at as string));
    expect(rows.slice(1)).toEqual([expect.objectContaining({ kind: 'forecast', status: 'closed', level_cm: 960 })]);
  }, 120_000);

  it('without a forecast the level is still recorded; a service that does not answer leaves the last known level', async () => {
    await control({ level_cm: 650, trend: -1, forecast: null });
    const fetched = await fetchGauge();
    // (Within the same quarter hour the sandbox's new value is a correction of the same measurement.)
    expect(fetched).toMatchObject({ status: 200, body: { recorded: true, level_cm: 650, forecast_points: 0 } });
    const before = await status();
    // The forecast the service no longer offers is not invented: the last run stays as it was.
    expect(before[0]).toMatchObject({ kind: 'now', status: 'open', level_cm: 650 });

    await control({ offline: true });
    expect((await api(`/stations/${DUSSELDORF}/W/currentmeasurement.json`)).status).toBe(503);
    expect(await fetchGauge()).toEqual({ status: 502, body: { error: 'gauge_unavailable' } });
    const after = await status();
    expect(after[0]).toEqual(before[0]);
    expect(after[0].level_cm).not.toBeNull();
    await control({ offline: false });
  }, 60_000);
});
