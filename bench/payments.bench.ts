/**
 * Online payment through the local stack with its payment sandbox (PGlite in memory, the
 * project's schema and seed), for guests who have just booked through the REST API:
 * - confirm -> checkout URL answered: create-checkout (begin_online_payment as the guest, a
 *   Checkout Session at the sandbox over the stripe SDK, record_checkout_session), the call the
 *   app makes before it sends the browser to the payment page;
 * - webhook -> order shows paid: from the sandbox page's answer to the card form (the browser
 *   is sent back to the app; the sandbox sends its signed events at that moment) until the
 *   guest's own REST read of the order shows `paid` (stripe-webhook's signature check,
 *   record_stripe_event, the ledger and the derived status), polled every 5 ms.
 * Two warm-up orders first (each function's Deno process starts on its first call).
 */
import { resolve } from 'node:path';
import { startStack } from '../supabase/local/src/stack.ts';
import { quantile, summarise, type BenchRow } from '../supabase/local/bench/types.ts';
import { callFunction, guestOrder, payOnSandbox, until } from '../supabase/local/test/harness/payments.ts';

const root = resolve(import.meta.dirname, '..');
const RUNS = 20;
const WARM_UP = 2;
const quiet = { info() {}, warn() {}, error() {} };

export async function run(): Promise<BenchRow[]> {
  const stack = await startStack({
    workdir: resolve(root, 'supabase'),
    inMemory: true,
    port: 0,
    mailPort: 0,
    smtpPort: 0,
    paymentsPort: 0,
    log: quiet,
  });
  try {
    const checkout: number[] = [];
    const paid: number[] = [];
    for (let i = -WARM_UP; i < RUNS; i++) {
      const order = await guestOrder(stack, 30 + WARM_UP + i, 'de');
      let t = performance.now();
      const answer = await callFunction(stack, 'create-checkout', { token: order.token, body: { order_id: order.orderId } });
      const checkoutMs = performance.now() - t;
      if (answer.status !== 200) throw new Error(`create-checkout: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
      const card = await payOnSandbox(answer.body.url as string);
      t = performance.now();
      if (card.status !== 303 && card.status !== 302) throw new Error(`the sandbox page answered ${card.status}, not a redirect`);
      const status = await until(
        async () => (await order.client.from('orders').select('payment_status').eq('id', order.orderId).single()).data?.payment_status,
        (s) => s === 'paid',
        30_000,
        5,
      );
      const paidMs = performance.now() - t;
      if (status !== 'paid') throw new Error(`order ${order.orderId} not paid after 30 s`);
      if (i >= 0) {
        checkout.push(checkoutMs);
        paid.push(paidMs);
      }
    }
    const p95 = (samples: number[]) => `p50 ${quantile(samples, 0.5).toFixed(1)} ms, p95 ${quantile(samples, 0.95).toFixed(1)} ms`;
    return [
      summarise(
        'confirm -> checkout URL answered (create-checkout)',
        'ms',
        checkout,
        `${p95(checkout)}; warm Deno, sandbox over the stripe SDK, ${RUNS} orders`,
        'PGlite',
      ),
      summarise(
        'webhook -> order shows paid',
        'ms',
        paid,
        `${p95(paid)}; from the card form's redirect to the guest's REST read showing paid (polled every 5 ms), ${RUNS} orders`,
        'PGlite',
      ),
    ];
  } finally {
    await stack.close();
  }
}
