/**
 * What a browser test cannot do through the app, answered by the test web server's process
 * (tests/e2e/server.ts) on the loopback: the passing of the SEPA pre-notification period, and the
 * gauge job run now instead of at the next quarter hour.
 *
 * A debit is collected at least `sepa_prenotification_days` (14) after its pre-notification
 * (docs/adr/0048-seasonal-fees-and-sepa.md); the stack's clock is the real one and no API role can
 * move it, the setting or a fee's collection day. The stack tests move the collection day in SQL
 * through their own database handle (supabase/local/test/fees-sepa-functions.test.ts); a browser
 * test asks this server to do the same for its own contract: the first instalment of a
 * pre-notified SEPA contract that is not collected yet gets today as its collection day, and its
 * pre-notification is moved back by as many days, so the period the holder was given still lies
 * between the two. The app's rule is untouched; nothing else is changed.
 */
import { createServer, type Server } from 'node:http';
import type { Stack } from '../../supabase/local/src/stack.ts';

export const CONTROL_PATH = '/sepa/collection-day';
/** Runs the 15-minute gauge job now (fetch-gauge reads the gauge sandbox), answers fetch-gauge's reply. */
export const GAUGE_FETCH_PATH = '/gauge/fetch';

async function fetchGaugeNow(stack: Stack): Promise<{ status: number; body: string }> {
  const { rows } = await stack.db.query<{ id: string }>(`select private.request_gauge_fetch()::text as id`);
  await stack.context.scheduler!.drain();
  const reply = await stack.db.query<{ status_code: number | null; content: string | null }>(
    `select status_code, content from net._http_response where id = $1::bigint`,
    [rows[0].id],
  );
  return { status: reply.rows[0]?.status_code ?? 502, body: reply.rows[0]?.content ?? '' };
}

export async function startControl(stack: Stack, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === GAUGE_FETCH_PATH) {
      fetchGaugeNow(stack)
        .then(({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body))
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
      return;
    }
    const contract = url.searchParams.get('contract') ?? '';
    if (req.method !== 'POST' || url.pathname !== CONTROL_PATH || !/^LV-\d{4}-\d{4}$/.test(contract)) {
      res.writeHead(404).end();
      return;
    }
    stack.db
      .query<{ id: string; collect_on: string }>(
        `update public.long_term_fees f
            set collect_on = private.berlin_date(now()),
                prenotified_at = f.prenotified_at - (f.collect_on - private.berlin_date(now())) * interval '1 day'
          where f.reference = $1 and f.instalment = 1 and f.payment_method = 'sepa_debit' and f.debit_state is null
            and f.mandate_id is not null and f.prenotified_at is not null and f.collect_on > private.berlin_date(now())
          returning f.id::text, f.collect_on::text`,
        [contract],
      )
      .then(({ rows }) => res.writeHead(rows.length ? 200 : 409, { 'content-type': 'application/json' }).end(JSON.stringify(rows)))
      .catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));
  return server;
}
