/**
 * The search of an order page that Stripe Checkout returns to (create-checkout's success_url
 * `?payment=success&session_id={CHECKOUT_SESSION_ID}` and cancel_url `?payment=cancelled`).
 * Route options are in the initial bundle: a plain function, no zod.
 */
export interface PaymentReturnSearch {
  payment?: 'success' | 'cancelled';
  session_id?: string;
}

export function validatePaymentReturn(search: Record<string, unknown>): PaymentReturnSearch {
  const payment = search.payment === 'success' || search.payment === 'cancelled' ? search.payment : undefined;
  const session =
    typeof search.session_id === 'string' && /^cs_[A-Za-z0-9_]{1,200}$/.test(search.session_id) ? search.session_id : undefined;
  return { ...(payment ? { payment } : {}), ...(payment === 'success' && session ? { session_id: session } : {}) };
}
