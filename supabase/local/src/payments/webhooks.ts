import { createHmac } from 'node:crypto';
import type { Logger } from '../context.ts';
import type { Delivery, PaymentStore } from './state.ts';

/** The header Stripe signs an event with: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.body")>`. */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** Waits between attempts: 1 s, 2 s, 4 s … (eight attempts in all, about two minutes). */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000];

/**
 * Delivers each event to the webhook endpoint as Stripe does: a POST of the Event object, signed;
 * a non-2xx answer or a network error is tried again after a growing pause, a bounded number of
 * times. Every delivery has its own timer, so an endpoint failing one event does not hold up the
 * others (Stripe does not promise order either).
 */
export class WebhookSender {
  private url: string | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inflight = new Set<AbortController>();
  private closed = false;

  constructor(
    private readonly store: PaymentStore,
    private readonly options: { secret: string; retryDelaysMs?: number[]; timeoutMs?: number; log: Logger },
  ) {
    store.onEvent = (delivery) => this.schedule(delivery, 0);
  }

  get endpoint() {
    return this.url;
  }

  /** Where events go; deliveries waiting for an address (or left over from a restart) start now. */
  setUrl(url: string) {
    this.url = url;
    for (const delivery of this.store.deliveries()) {
      if (delivery.status === 'pending' && !this.timers.has(delivery.event)) {
        this.schedule(delivery, Math.max(0, (delivery.next_attempt_at ?? 0) * 1000 - Date.now()));
      }
    }
  }

  private schedule(delivery: Delivery, delayMs: number) {
    if (this.closed || !this.url) return;
    clearTimeout(this.timers.get(delivery.event));
    const timer = setTimeout(() => {
      this.timers.delete(delivery.event);
      void this.attempt(delivery);
    }, delayMs);
    timer.unref();
    this.timers.set(delivery.event, timer);
  }

  private async attempt(delivery: Delivery) {
    const event = this.store.event(delivery.event);
    const url = this.url;
    if (!event || !url || this.closed) return;
    const body = JSON.stringify(event, null, 2);
    const controller = new AbortController();
    this.inflight.add(controller);
    const timeout = setTimeout(() => controller.abort(new Error('timed out')), this.options.timeoutMs ?? 10_000);
    let status: number | null = null;
    let error: string | undefined;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (local payment sandbox)',
          'stripe-signature': signatureHeader(this.options.secret, body),
        },
        body,
        signal: controller.signal,
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = (e as Error).message;
    } finally {
      clearTimeout(timeout);
      this.inflight.delete(controller);
    }
    if (this.closed) return;
    delivery.attempts.push({ at: Math.floor(Date.now() / 1000), status, ...(error ? { error } : {}) });
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    if (status !== null && status >= 200 && status < 300) {
      delivery.status = 'delivered';
      delivery.next_attempt_at = null;
    } else if (delivery.attempts.length > delays.length) {
      delivery.status = 'failed';
      delivery.next_attempt_at = null;
      this.options.log.warn(
        `payment sandbox: gave up delivering ${event.type} ${event.id} to ${url} after ${delivery.attempts.length} attempts (${error ?? `HTTP ${status}`})`,
      );
    } else {
      const wait = delays[delivery.attempts.length - 1];
      delivery.next_attempt_at = Math.ceil((Date.now() + wait) / 1000);
      this.schedule(delivery, wait);
    }
    this.store.save();
  }

  close() {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inflight) controller.abort(new Error('sandbox closed'));
  }
}
