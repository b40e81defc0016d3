import type { Scheduler, StackContext } from '../context.ts';
import type { Queryable } from '../db/types.ts';

/**
 * The stack's pg_cron + pg_net worker over the stand-in schemas of bootstrap/cron-net.sql: runs
 * due cron.job entries (five-field cron in UTC at minute resolution, '@daily'-style names and
 * 'N seconds') as the role that scheduled them, and sends the requests net.http_post/http_get
 * queued, promptly (LISTEN) and on every tick, recording replies in net._http_response.
 */
const NAMED: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function field(spec: string, min: number, max: number, names?: string[], nameBase = 0): Set<number> | null {
  if (spec === '*') return null;
  const out = new Set<number>();
  const value = (s: string) => {
    const i = names?.indexOf(s.toLowerCase()) ?? -1;
    const n = i >= 0 ? i + nameBase : Number(s);
    if (!Number.isInteger(n)) throw new Error(`invalid cron field "${spec}"`);
    return n;
  };
  for (const part of spec.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    if (!Number.isInteger(step) || step < 1) throw new Error(`invalid cron step "${part}"`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [min, max];
    else if (range.includes('-')) [lo, hi] = range.split('-').map(value) as [number, number];
    else {
      lo = value(range);
      hi = stepText ? max : lo;
    }
    for (let n = lo; n <= hi; n += step) out.add(n);
  }
  return out;
}

export type Schedule = { everySeconds: number } | { matches(date: Date): boolean };

/** Parses pg_cron's schedule syntax (UTC, like pg_cron's default cron.timezone). */
export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim().toLowerCase();
  const seconds = /^(\d+)\s+seconds?$/.exec(trimmed);
  if (seconds) return { everySeconds: Number(seconds[1]) };
  const parts = (NAMED[trimmed] ?? trimmed).split(/\s+/);
  if (parts.length !== 5) throw new Error(`invalid schedule: ${text}`);
  const minute = field(parts[0], 0, 59);
  const hour = field(parts[1], 0, 23);
  const dom = field(parts[2], 1, 31);
  const month = field(parts[3], 1, 12, MONTHS, 1);
  const dowRaw = field(parts[4], 0, 7, DAYS, 0);
  const dow = dowRaw && new Set([...dowRaw].map((d) => d % 7));
  return {
    matches(date: Date) {
      if (minute && !minute.has(date.getUTCMinutes())) return false;
      if (hour && !hour.has(date.getUTCHours())) return false;
      if (month && !month.has(date.getUTCMonth() + 1)) return false;
      const domOk = !dom || dom.has(date.getUTCDate());
      const dowOk = !dow || dow.has(date.getUTCDay());
      // Vixie cron: when both day fields are restricted, either may match.
      return dom && dow ? domOk || dowOk : domOk && dowOk;
    },
  };
}

interface Job {
  jobid: string;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
  active: boolean;
}

export function startScheduler(ctx: StackContext, options: { tickMs?: number } = {}): Scheduler {
  const db = ctx.db;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const running = new Set<string>();
  const lastRun = new Map<string, number>();
  const parsed = new Map<string, Schedule | Error>();
  let lastMinute = Math.floor(Date.now() / 60_000);
  let draining: Promise<void> | undefined;
  let drainAgain = false;
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  const ready = (async () => {
    const { rows } = await db.query<{ ok: boolean }>(
      `select coalesce(obj_description(to_regnamespace('net'), 'pg_namespace') like 'supabase-local:%', false) as ok`,
    );
    if (!rows[0]?.ok) return false;
    unlisten = await db.listen('supabase_local_net', () => void drain());
    return true;
  })().catch((error) => {
    ctx.log.error(`scheduler: ${(error as Error).message}`);
    return false;
  });

  async function runJob(job: Job, prepare?: (tx: Queryable) => Promise<void>) {
    if (running.has(job.jobid)) return;
    running.add(job.jobid);
    const started = new Date().toISOString();
    let status = 'succeeded';
    let message = '';
    try {
      await db.transaction(async (tx) => {
        await prepare?.(tx);
        await tx.query(`select set_config('role', $1, true)`, [job.username]);
        await tx.exec(job.command);
      });
      message = 'done';
    } catch (error) {
      status = 'failed';
      message = (error as Error).message;
      ctx.log.warn(`cron job ${job.jobid} failed: ${message}`);
    } finally {
      running.delete(job.jobid);
    }
    if (stopped) return;
    await db
      .query(
        `insert into cron.job_run_details (jobid, job_pid, database, username, command, status, return_message, start_time, end_time)
         values ($1, 0, current_database(), $2, $3, $4, $5, $6, now())`,
        [job.jobid, job.username, job.command, status, message, started],
      )
      .catch(() => {});
  }

  function scheduleOf(job: Job): Schedule | Error {
    let schedule = parsed.get(job.schedule);
    if (!schedule) {
      try {
        schedule = parseSchedule(job.schedule);
      } catch (error) {
        schedule = error as Error;
        ctx.log.warn(`cron job ${job.jobid}: ${(error as Error).message}`);
      }
      parsed.set(job.schedule, schedule);
    }
    return schedule;
  }

  const activeJobs = async () =>
    (
      await db.query<Job>(
        `select jobid::text as jobid, jobname, schedule, command, username, active from cron.job where active order by jobid`,
      )
    ).rows;

  async function tick() {
    if (stopped || !(await ready)) return;
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const newMinutes: Date[] = [];
    // Every minute since the last tick (at most a few, after a pause) is checked once.
    for (let m = Math.max(lastMinute + 1, minute - 5); m <= minute; m++) newMinutes.push(new Date(m * 60_000));
    lastMinute = minute;
    for (const job of await activeJobs()) {
      const schedule = scheduleOf(job);
      if (schedule instanceof Error) continue;
      let due = false;
      if ('everySeconds' in schedule) {
        const last = lastRun.get(job.jobid);
        if (last === undefined) lastRun.set(job.jobid, now);
        else if (now - last >= schedule.everySeconds * 1000 - 50) due = true;
      } else {
        due = newMinutes.some((d) => schedule.matches(d));
      }
      if (due) {
        lastRun.set(job.jobid, now);
        void track(runJob(job));
      }
    }
  }

  async function send(row: {
    id: string;
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | null;
    timeout_milliseconds: number;
  }) {
    let result: {
      status: number | null;
      contentType: string | null;
      headers: Record<string, string> | null;
      content: string | null;
      timedOut: boolean;
      error: string | null;
    };
    try {
      const res = await fetch(row.url, {
        method: row.method,
        headers: row.headers,
        body: row.method === 'GET' ? undefined : (row.body ?? undefined),
        signal: AbortSignal.timeout(row.timeout_milliseconds),
      });
      result = {
        status: res.status,
        contentType: res.headers.get('content-type'),
        headers: Object.fromEntries(res.headers),
        content: await res.text(),
        timedOut: false,
        error: null,
      };
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      result = {
        status: null,
        contentType: null,
        headers: null,
        content: null,
        timedOut,
        error: timedOut ? 'Timeout of ' + row.timeout_milliseconds + ' ms reached' : (error as Error).message,
      };
    }
    if (stopped) return;
    await db
      .query(
        `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg) values ($1, $2, $3, $4, $5, $6, $7)`,
        [row.id, result.status, result.contentType, result.headers, result.content, result.timedOut, result.error],
      )
      .catch((error) => ctx.log.warn(`net: could not record response ${row.id}: ${(error as Error).message}`));
  }

  async function drainOnce() {
    for (;;) {
      if (stopped) return;
      const { rows } = await db.query<Parameters<typeof send>[0]>(
        `delete from net.http_request_queue where id in (select id from net.http_request_queue order by id limit 50)
         returning id::text as id, method, url, headers, convert_from(body, 'UTF8') as body, timeout_milliseconds`,
      );
      if (rows.length === 0) return;
      await Promise.all(rows.map((row) => track(send(row))));
    }
  }

  function drain(): Promise<void> {
    if (draining) {
      drainAgain = true;
      return draining;
    }
    draining = (async () => {
      try {
        if (!(await ready)) return;
        do {
          drainAgain = false;
          await drainOnce();
        } while (drainAgain && !stopped);
      } catch (error) {
        if (!stopped) ctx.log.warn(`net: ${(error as Error).message}`);
      } finally {
        draining = undefined;
      }
    })();
    return draining;
  }

  const loop = () => {
    timer = setTimeout(async () => {
      try {
        await tick();
        await drain();
      } catch (error) {
        if (!stopped) ctx.log.warn(`scheduler: ${(error as Error).message}`);
      }
      if (!stopped) loop();
    }, options.tickMs ?? 1000);
    timer.unref();
  };
  loop();

  async function runDue(at: Date, runOptions: { prepare?: (tx: Queryable) => Promise<void> } = {}) {
    if (!(await ready)) return [];
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    const due = (await activeJobs()).filter((job) => {
      const schedule = scheduleOf(job);
      return !(schedule instanceof Error) && 'matches' in schedule && schedule.matches(minute);
    });
    for (const job of due) await track(runJob(job, runOptions.prepare));
    return due.map((job) => job.jobname ?? job.jobid);
  }

  return {
    drain,
    runDue,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await ready;
      await unlisten?.().catch(() => {});
      await Promise.allSettled([...inFlight, draining]);
    },
  };
}
