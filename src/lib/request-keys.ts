/**
 * Request keys for money actions (ground rule 6; docs/adr/0030-payments-ledger.md): the database
 * records a payment, refund or transfer once per key, and a retry under the same key gets the
 * first answer back.
 */

/**
 * The request key of a payment, refund or transfer the person confirmed: the same one for every
 * retry of it (the same target, method and amount: a second click, a retry after a timeout or an error that
 * left it open), a new one for anything else. Call `done` when it went through or was refused for
 * good: the next confirmation is then a new payment or refund.
 */
export function paymentRequestKeys() {
  let current: { what: string; key: string } | null = null;
  return {
    keyFor(action: { target: string; method: string; amountCents: number }): string {
      const what = `${action.target}|${action.method}|${action.amountCents}`;
      if (current?.what !== what) current = { what, key: crypto.randomUUID() };
      return current.key;
    },
    done() {
      current = null;
    },
  };
}
