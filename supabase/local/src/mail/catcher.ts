import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { MailStore, MailMessage } from './store.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font:15px/1.4 system-ui,sans-serif;margin:0;color:#1b2733}header{background:#0584bc;color:#fff;padding:12px 20px}
main{padding:16px 20px;max-width:1000px}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:6px 8px;border-bottom:1px solid #dde}
a{color:#03577d}pre{white-space:pre-wrap;background:#f5f7f9;padding:12px}iframe{width:100%;height:60vh;border:1px solid #dde}
.muted{color:#5b6873}</style></head><body><header><strong>Local mail catcher</strong> · messages the local stack would have sent</header><main>${body}</main></body></html>`;
}

function listPage(messages: MailMessage[]) {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${escapeHtml(new Date(m.date).toLocaleString('de-DE', { timeZone: 'Europe/Berlin' }))}</td><td>${escapeHtml(m.to.join(', '))}</td><td><a href="/m/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('');
  return page(
    'Mail catcher',
    messages.length
      ? `<table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`
      : '<p class="muted">No messages yet.</p>',
  );
}

function messagePage(m: MailMessage) {
  const attachments = m.attachments.length
    ? `<p>Attachments: ${m.attachments.map((a) => `${escapeHtml(a.filename)} (${escapeHtml(a.contentType)})`).join(', ')}</p>`
    : '';
  return page(
    m.subject,
    `<p><a href="/">← all messages</a></p><h1>${escapeHtml(m.subject)}</h1>
<p class="muted">From ${escapeHtml(m.from)} to ${escapeHtml(m.to.join(', '))}</p>${attachments}
${m.html ? `<iframe sandbox srcdoc="${escapeHtml(m.html)}" title="HTML body"></iframe>` : ''}
${m.text ? `<h2>Text</h2><pre>${escapeHtml(m.text)}</pre>` : ''}`,
  );
}

export interface CatcherServers {
  httpUrl: string;
  smtpPort: number;
  close(): Promise<void>;
}

/**
 * The catcher's web page and JSON API (for people and for tests) and an SMTP listener, so
 * separate processes (the Deno mail function) deliver here exactly as in production.
 * JSON API: GET /api/messages[?to=], GET /api/messages/latest?to=[&since=&wait=ms],
 * GET /api/messages/:id, DELETE /api/messages[?to=].
 */
export async function startCatcher(
  store: MailStore,
  options: { host: string; httpPort: number; smtpPort: number },
): Promise<CatcherServers> {
  const http: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(body));
    };
    const to = url.searchParams.get('to') ?? undefined;
    if (url.pathname === '/api/messages' && req.method === 'GET') return json(200, store.list(to));
    if (url.pathname === '/api/messages' && req.method === 'DELETE') {
      store.clear(to);
      return json(200, { ok: true });
    }
    if (url.pathname === '/api/messages/latest' && req.method === 'GET') {
      const wait = Math.min(Number(url.searchParams.get('wait') ?? 0) || 0, 30_000);
      const m = await store.waitFor(to, url.searchParams.get('since') ?? undefined, wait);
      return m ? json(200, m) : json(404, { message: 'no message' });
    }
    const api = /^\/api\/messages\/([\w-]+)$/.exec(url.pathname);
    if (api && req.method === 'GET') {
      const m = store.get(api[1]);
      return m ? json(200, m) : json(404, { message: 'no message' });
    }
    const view = /^\/m\/([\w-]+)$/.exec(url.pathname);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (url.pathname === '/') return res.end(listPage(store.list()));
    if (view && store.get(view[1])) return res.end(messagePage(store.get(view[1])!));
    res.statusCode = 404;
    res.end(page('Not found', '<p>Not found. <a href="/">All messages</a></p>'));
  });

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 25 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        try {
          const raw = Buffer.concat(chunks);
          const parsed = await PostalMime.parse(raw);
          const rcpt = session.envelope.rcptTo.map((r) => r.address);
          store.add({
            from: parsed.from?.address ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
            to: rcpt,
            subject: parsed.subject ?? '',
            text: parsed.text,
            html: parsed.html,
            headers: Object.fromEntries(parsed.headers.map((h) => [h.key, h.value])),
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? 'attachment',
              contentType: a.mimeType,
              content: Buffer.from(a.content as ArrayBuffer).toString('base64'),
            })),
            raw: raw.toString('utf8'),
          });
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  smtp.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.httpPort, options.host, () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(options.smtpPort, options.host, () => resolve());
  });
  const httpPort = (http.address() as AddressInfo).port;
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  return {
    httpUrl: `http://${options.host === '127.0.0.1' ? 'localhost' : options.host}:${httpPort}`,
    smtpPort,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
      await new Promise<void>((r) => smtp.close(() => r()));
    },
  };
}
