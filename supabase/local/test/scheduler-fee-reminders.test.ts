/**
 * The fee reminders fire from the local scheduler (issue 42 item 5, docs/adr/0051): the stack's
 * pg_cron stand-in runs the project's `fee-reminders` job (99_cron.sql, daily at 05:30 UTC) "at"
 * a given minute with the database's clock frozen there. On the demo data
 * (supabase/seeds/440_fee_reminders.sql: Otto Offen's fee 30 days overdue, the first reminder
 * 27 days ago) the job sends the second reminder at 05:30, not at 05:29, and not again at the
 * next day's run. The rule itself is checked on both engines in pgTAP 440.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses } from './harness/offline.ts';
import type { Queryable } from '../src/db/types.ts';
import type { Stack } from '../src/stack.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const FEE = 'fe000000-0000-4000-8000-000000000044';
const engine = engines()[0];
const suite = `fee reminders from the scheduler with a test clock on ${engine.name}`;
describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
  let stack: Stack;

  async function runAt(at: Date): Promise<string[]> {
    const prepare = async (tx: Queryable) => void (await tx.query(`select private.freeze_clock($1)`, [at.toISOString()]));
    const ran = await stack.context.scheduler!.runDue(at, { prepare });
    await stack.context.scheduler!.drain();
    return ran;
  }
  const stages = async () =>
    (await stack.db.query<{ stage: number }>(`select stage from public.fee_reminders where fee_id = $1 order by stage`, [FEE])).rows.map(
      (r) => r.stage,
    );

  beforeAll(async () => {
    stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('the daily job sends the second reminder at 05:30 UTC once', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(await stages()).toEqual([1]);
    expect(await runAt(new Date(`${today}T05:29:00Z`))).not.toContain('fee-reminders');
    expect(await stages()).toEqual([1]);
    expect(await runAt(new Date(`${today}T05:30:00Z`))).toContain('fee-reminders');
    expect(await stages()).toEqual([1, 2]);
    const mail = await stack.db.query<{ subject: string }>(
      `select subject from public.outbox where kind = 'fee_reminder' and recipient = 'otto.offen@hafen.test'`,
    );
    expect(mail.rows.map((r) => r.subject)).toEqual([expect.stringMatching(/^2\. Zahlungserinnerung: Rechnung /)]);
    const tomorrow = new Date(Date.parse(`${today}T05:30:00Z`) + 86_400_000);
    expect(await runAt(tomorrow)).toContain('fee-reminders');
    expect(await stages()).toEqual([1, 2]);
  }, 60_000);
});
