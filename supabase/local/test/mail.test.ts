import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { Mailer } from '../src/mail/index.ts';
import { MailStore } from '../src/mail/store.ts';
import { startCatcher, type CatcherServers } from '../src/mail/catcher.ts';

describe('the mail catcher', () => {
  const store = new MailStore();
  let catcher: CatcherServers;
  beforeAll(async () => {
    catcher = await startCatcher(store, { host: '127.0.0.1', httpPort: 0, smtpPort: 0 });
  });
  afterAll(() => catcher.close());

  const api = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${catcher.httpUrl}${path}`, init);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON from the API under test
    return { status: res.status, body: (await res.json()) as any };
  };

  it('keeps messages sent through the Mailer and serves them by address', async () => {
    // The catcher serves the store it is given; hand the Mailer that store.
    const own = new Mailer('Hafen <hafen@example.test>');
    Object.assign(own, { store });
    await own.send({ to: 'Skipper@Example.test', subject: 'Ihr Code: 123456', text: 'Code 123456' });
    await own.send({ to: 'other@example.test', subject: 'Something else', text: 'x' });
    const list = await api('/api/messages?to=skipper@example.test');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      to: ['skipper@example.test'],
      subject: 'Ihr Code: 123456',
      text: 'Code 123456',
      from: 'Hafen <hafen@example.test>',
    });
    const latest = await api('/api/messages/latest?to=other@example.test');
    expect(latest.body.subject).toBe('Something else');
    const byId = await api(`/api/messages/${list.body[0].id}`);
    expect(byId.body.id).toBe(list.body[0].id);
    expect((await api('/api/messages/latest?to=nobody@example.test')).status).toBe(404);
    expect((await api('/api/messages?to=other@example.test', { method: 'DELETE' })).status).toBe(200);
    expect((await api('/api/messages?to=other@example.test')).body).toEqual([]);
    expect((await api('/api/messages?to=skipper@example.test')).body).toHaveLength(1);
  });

  it('accepts SMTP from other processes, attachments included', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true });
    const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
    await transport.sendMail({
      from: 'Hafen Düsseldorf <hafen@example.test>',
      to: 'gast@example.test',
      subject: 'Buchungsbestätigung – Liegeplatz A12',
      text: 'Willkommen im Hafen',
      html: '<p>Willkommen im <b>Hafen</b></p>',
      // base64 keeps the CRLF line ends that RFC 5545 requires (quoted-printable would not).
      attachments: [{ filename: 'aufenthalt.ics', content: ics, contentType: 'text/calendar', contentTransferEncoding: 'base64' }],
    });
    const { body } = await api('/api/messages/latest?to=gast@example.test');
    expect(body.subject).toBe('Buchungsbestätigung – Liegeplatz A12');
    expect(body.html).toContain('<b>Hafen</b>');
    expect(body.text.trim()).toBe('Willkommen im Hafen');
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0].filename).toBe('aufenthalt.ics');
    expect(body.attachments[0].contentType).toBe('text/calendar');
    // The parsed calendar part is normalised to LF by the MIME parser; the raw source keeps
    // the exact bytes that were sent (CRLF, as RFC 5545 wants).
    expect(Buffer.from(body.attachments[0].content, 'base64').toString()).toBe(ics.replace(/\r\n/g, '\n'));
    expect(body.raw).toContain(Buffer.from(ics).toString('base64'));
  });

  it('waits for a message that has not arrived yet', async () => {
    const since = new Date().toISOString();
    const pending = api(`/api/messages/latest?to=later@example.test&since=${encodeURIComponent(since)}&wait=5000`);
    setTimeout(() => store.add({ from: 'a@example.test', to: ['later@example.test'], subject: 'Später' }), 200);
    const { status, body } = await pending;
    expect(status).toBe(200);
    expect(body.subject).toBe('Später');
  });

  it('shows messages on a web page, with their text escaped', async () => {
    store.add({
      from: 'a@example.test',
      to: ['xss@example.test'],
      subject: '<script>alert(1)</script>',
      text: '<img src=x onerror=alert(1)>',
    });
    const list = await (await fetch(`${catcher.httpUrl}/`)).text();
    expect(list).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(list).not.toContain('<script>alert(1)</script>');
    const id = store.latest('xss@example.test')!.id;
    const page = await fetch(`${catcher.httpUrl}/m/${id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect((await fetch(`${catcher.httpUrl}/m/unknown`)).status).toBe(404);
  });

  it('sends over SMTP instead when SMTP settings are given', async () => {
    const remote = new MailStore();
    const server = await startCatcher(remote, { host: '127.0.0.1', httpPort: 0, smtpPort: 0 });
    try {
      const mailer = new Mailer('Hafen <hafen@example.test>', { host: '127.0.0.1', port: server.smtpPort, secure: false });
      expect(mailer.usesSmtp).toBe(true);
      await mailer.send({ to: 'relay@example.test', subject: 'Über SMTP', text: 'ok' });
      expect(mailer.store.list()).toEqual([]);
      expect(remote.latest('relay@example.test')?.subject).toBe('Über SMTP');
    } finally {
      await server.close();
    }
  });
});
