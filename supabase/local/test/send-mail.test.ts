/**
 * supabase/functions/send-mail against the project (migrations + seed) on the local stack:
 * it delivers the outbox to the mail catcher over SMTP, retries after an SMTP failure, and is
 * reached by the database itself through pg_net (the trigger on the outbox / the cron job).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { engines, skipBecause } from './harness/engines.ts';
import { startTestStack } from './harness/stack.ts';
import { closeNetworkForChildProcesses, downloadedNpmFiles } from './harness/offline.ts';
import type { Stack } from '../src/stack.ts';
import type { MailMessage } from '../src/mail/store.ts';

const project = resolve(import.meta.dirname, '../..');
// As on a fresh machine without internet: an empty Deno cache (each test stack has its own)
// and no network for Deno; send-mail's nodemailer must come from what `npm ci` installed.
closeNetworkForChildProcesses();
const options = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: WebSocket as never },
};

interface OutboxRow {
  id: string;
  kind: string;
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

for (const engine of engines()) {
  const suite = `send-mail on ${engine.name}`;
  describe.skipIf(engine.skip && skipBecause(suite, engine.skip))(suite, () => {
    let stack: Stack;
    let anon: SupabaseClient;
    let service: SupabaseClient;

    const outbox = async (where = 'true') =>
      (
        await stack.db.query<OutboxRow>(
          `select id::text, kind, recipient, status, attempts, last_error from public.outbox where ${where} order by id`,
        )
      ).rows;
    const invoke = async () => {
      const { data, error } = await service.functions.invoke('send-mail', { body: { source: 'test' } });
      expect(error).toBeNull();
      return data as { sent: number; retried: number; failed: number; errors: string[] };
    };

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: project });
      anon = createClient(stack.url, stack.keys.anonKey, options);
      service = createClient(stack.url, stack.keys.serviceRoleKey, options);
      // The stack stored its own URL in Vault ([db.vault]); this test calls the function itself
      // until the pg_net test below.
      await stack.db.query(`delete from vault.secrets where name = 'project_url'`);
    }, 180_000);

    afterAll(async () => {
      await stack?.close();
    });

    it('delivers the queued booking confirmations to the mail catcher, with the .ics of the stay', async () => {
      const queued = await outbox(`status = 'pending'`);
      expect(queued.length).toBeGreaterThan(0);
      expect(queued.every((r) => r.kind === 'booking_confirmation')).toBe(true);

      const result = await invoke();
      expect(result).toMatchObject({ sent: queued.length, retried: 0, failed: 0 });
      expect((await outbox(`status <> 'sent'`)).length).toBe(0);

      const mail = (await stack.context.mailer.store.waitFor('lisa.meyer@hafen.test', undefined, 5000)) as MailMessage;
      expect(mail.subject).toMatch(/^Ihre Buchung im Hafen Düsseldorf: Liegeplatz A/);
      expect(mail.text).toContain('MwSt. 19 %');
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0].contentType).toBe('text/calendar');
      // The bytes on the wire (the catcher's parser normalises text line ends): CRLF lines.
      const part = /Content-Disposition: attachment; filename=[^\r\n]+\.ics\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(mail.raw ?? '');
      expect(part).not.toBeNull();
      const ics = Buffer.from(part![1].replace(/\r\n/g, ''), 'base64').toString('utf8');
      expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
      expect(ics).toMatch(/\r\nDTSTART:\d{8}T\d{6}Z\r\n/);
      expect(mail.headers['reply-to']).toBeDefined();
      // Nothing is sent twice.
      expect(await invoke()).toMatchObject({ sent: 0, retried: 0, failed: 0 });
      // The link in it goes to the app (config.toml's site_url: this stack was given no other).
      expect(mail.text).toMatch(/http:\/\/localhost:3000\/order\/[0-9a-f-]{36}/);
      // Deno downloaded nothing: its npm cache, empty at the start, is still empty.
      expect(process.env.HTTPS_PROXY).toBe('http://127.0.0.1:9');
      expect(downloadedNpmFiles(stack.context.denoDir)).toEqual([]);
    }, 120_000);

    it('retries a message after an SMTP failure, and delivers it on the next attempt', async () => {
      const { data: id, error } = await anon.rpc('send_contact_message', {
        p_name: 'Carla Kontakt',
        p_email: 'carla@example.org',
        p_message: 'Haben Sie im August noch Platz für ein 12-m-Boot?',
      });
      expect(error).toBeNull();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);

      // The catcher refuses the next message (a full disk, say): the SMTP server answers 4xx.
      const store = stack.context.mailer.store;
      const add = store.add.bind(store);
      store.add = () => {
        throw new Error('mailbox temporarily unavailable');
      };
      let first;
      try {
        first = await invoke();
      } finally {
        store.add = add;
      }
      expect(first).toMatchObject({ sent: 0, retried: 1, failed: 0 });
      expect(first.errors[0]).toMatch(/mailbox temporarily unavailable/);
      const [row] = await outbox(`kind = 'contact_message'`);
      expect(row).toMatchObject({ recipient: 'hafen@hafen-duesseldorf.de', status: 'pending', attempts: 1 });
      expect(row.last_error).toMatch(/mailbox temporarily unavailable/);
      expect(store.list('hafen@hafen-duesseldorf.de')).toHaveLength(0);

      // Backoff: not due yet, so the next call leaves it alone ...
      expect(await invoke()).toMatchObject({ sent: 0, retried: 0 });
      // ... until its time has come.
      await stack.db.query(`update public.outbox set next_attempt_at = now() where id = $1`, [row.id]);
      expect(await invoke()).toMatchObject({ sent: 1, retried: 0 });
      expect((await outbox(`kind = 'contact_message'`))[0]).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
      const mail = (await store.waitFor('hafen@hafen-duesseldorf.de', undefined, 5000)) as MailMessage;
      expect(mail.subject).toBe('Kontaktanfrage von Carla Kontakt');
      expect(mail.headers['reply-to']).toContain('carla@example.org');
    }, 120_000);

    it('is called by the database through pg_net as soon as mail is queued', async () => {
      await stack.db.query(`select vault.create_secret($1, 'project_url')`, [stack.url]);
      const { error } = await anon.rpc('request_service', {
        p_service: 'diesel',
        p_name: 'Jan de Vries',
        p_email: 'jan@example.org',
        p_message: 'Bitte 200 Liter Diesel für die Vrijheid.',
        p_locale: 'en',
      });
      expect(error).toBeNull();
      const store = stack.context.mailer.store;
      const serviceMail = () => store.list('hafen@hafen-duesseldorf.de').find((m) => m.subject.startsWith('Serviceanfrage'));
      const sent = async () => (await outbox(`kind = 'service_request'`))[0];
      const deadline = Date.now() + 30_000;
      while ((!serviceMail() || (await sent()).status !== 'sent') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(serviceMail()?.subject).toBe('Serviceanfrage (Diesel) von Jan de Vries');
      expect(await sent()).toMatchObject({ status: 'sent', attempts: 1 });
      // The schedules exist for pg_cron to run (every minute; expiry and the report tables every
      // five; reminders and the Rhine gauge every 15, the low-water warnings five minutes after it).
      const jobs = await stack.db.query<{ jobname: string; schedule: string }>(`select jobname, schedule from cron.job order by jobname`);
      expect(jobs.rows).toEqual([
        { jobname: 'collect-fees', schedule: '0 5 * * *' },
        { jobname: 'depth-warnings', schedule: '5-59/15 * * * *' },
        { jobname: 'expire-unverified-orders', schedule: '*/5 * * * *' },
        { jobname: 'fee-reminders', schedule: '30 5 * * *' },
        { jobname: 'fetch-gauge', schedule: '*/15 * * * *' },
        { jobname: 'guest-reminders', schedule: '*/15 * * * *' },
        { jobname: 'insurance-reminders', schedule: '0 7 * * *' },
        { jobname: 'lapse-offers', schedule: '*/15 * * * *' },
        { jobname: 'report-flush', schedule: '*/5 * * * *' },
        { jobname: 'send-mail', schedule: '* * * * *' },
      ]);
    }, 120_000);
  });
}
