/**
 * The insurance reminder fires from the local scheduler (issue 42 item 3, ADR 0050): the stack's
 * pg_cron stand-in runs the project's jobs "at" a minute with the database's clock frozen there
 * (Scheduler.runDue + private.freeze_clock); the insurance-reminders job (daily 07:00 UTC) queues
 * the e-mail 30 days before the certificate expires, send-mail delivers it, in the holder's
 * language; the next day nothing more. The SQL itself is checked on both engines in pgTAP 430.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses } from './harness/offline.ts';
import { until } from './harness/payments.ts';
import type { Queryable } from '../src/db/types.ts';
import type { Stack } from '../src/stack.ts';

const project = resolve(import.meta.dirname, '../..');
closeNetworkForChildProcesses();

const engine = engines()[0];
const suite = `insurance reminder from the scheduler with a test clock on ${engine.name}`;
describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
  let stack: Stack;
  const email = 'ina.insured@example.org';

  async function runAt(at: Date): Promise<string[]> {
    const prepare = async (tx: Queryable) => void (await tx.query(`select private.freeze_clock($1)`, [at.toISOString()]));
    const ran = await stack.context.scheduler!.runDue(at, { prepare });
    await stack.context.scheduler!.drain();
    return ran;
  }

  beforeAll(async () => {
    stack = await startTestStack({ engine: engine.name, workdir: project, paymentsPort: 0 });
    // A holder without an account (German) on a berth nobody holds, its certificate valid until 1 July 2031.
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into public.long_term_holders (place_id, email, first_name, last_name, starts_on, ends_on, boat_name)
       select p.id, $1, 'Ina', 'Insured', '2031-04-01', '2031-10-31', 'Sicherheit' from public.places p
        where not exists (select 1 from public.long_term_holders h where h.place_id = p.id) order by p.name limit 1
       returning id`,
      [email],
    );
    await stack.db.query(
      `insert into public.holder_insurance_certificates (holder_id, insurer, policy_number, valid_until, file_path)
       values ($1::uuid, 'Pantaenius', 'YP-1', '2031-07-01', $1::text || '/police.pdf')`,
      [rows[0].id],
    );
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('31 days before nothing; 30 days before one e-mail at 07:00 UTC, delivered; the next day none', async () => {
    const outbox = () =>
      stack.db.query<{ status: string }>(`select status from public.outbox where kind = 'insurance_reminder' and recipient = $1`, [email]);
    expect(await runAt(new Date('2031-05-31T07:00:00Z'))).toContain('insurance-reminders');
    expect((await outbox()).rows).toEqual([]);
    expect(await runAt(new Date('2031-06-01T06:59:00Z'))).not.toContain('insurance-reminders');
    expect(await runAt(new Date('2031-06-01T07:00:00Z'))).toContain('insurance-reminders');
    await until(outbox, (r) => r.rows[0]?.status === 'sent', 30_000);
    const mail = stack.context.mailer.store.list(email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toMatch(/^Ihre Bootsversicherung läuft am 01\.07\.2031 ab \(Liegeplatz \w+\)$/);
    expect(mail[0]!.text).toContain('Bitte laden Sie den neuen Nachweis in Ihrem Konto hoch');
    expect(await runAt(new Date('2031-06-02T07:00:00Z'))).toContain('insurance-reminders');
    expect((await outbox()).rows).toHaveLength(1);
  }, 120_000);
});
