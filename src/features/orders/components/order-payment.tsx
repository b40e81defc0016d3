import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { CreditCard, Loader2 } from 'lucide-react';
import { Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { formatBerlinDateTime } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { cn } from '@/lib/utils';
import { orderKeys } from '@/features/orders/api/keys';
import { orderQueryOptions } from '@/features/orders/api/order';
import {
  canPayOnline,
  orderBalanceQueryOptions,
  orderPaymentsQueryOptions,
  paymentLapsed,
  useStartCheckout,
} from '@/features/orders/api/payments';
import type { Order } from '@/features/orders/api/types';
import { useOrderLive } from '@/features/orders/hooks/use-order-live';
import { usePaymentLabel, usePaymentMethodLabel } from '@/features/orders/components/order-status';
import { errorMessage } from '@/lib/errors/guest-messages';
import { msg } from '@lingui/core/macro';
import { FormAlert } from '@/components/form-alert';

/** The `?payment=` a guest comes back with from Stripe Checkout (success_url / cancel_url). */
export type PaymentReturn = 'success' | 'cancelled';

/** After this long without the payment arriving, the page says so calmly (the webhook may be retried). */
const SLOW_AFTER_MS = 30_000;
/** Polling stops after this long; realtime and a reload still bring the payment. */
const POLL_FOR_MS = 5 * 60_000;

/**
 * The pay-online part of the order page: what the return from Checkout means (confirming, paid,
 * cancelled), and while the order can be paid online the "pay online now" button. Waiting for
 * the payment polls the order (bounded) and listens to its changes.
 */
export function PayOnline({ order, returned, variant }: { order: Order; returned?: PaymentReturn; variant: 'order' | 'result' }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  // Undefined while loading or unreadable: then no online payment is offered (the desk still takes it).
  const balance = useQuery(orderBalanceQueryOptions(order.id)).data;
  const checkout = useStartCheckout();
  // The browser is on its way to the payment page; a page restored from the back/forward cache
  // (the browser's back button on that page) is usable again.
  const [leaving, setLeaving] = useState(false);
  const { reset } = checkout;
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setLeaving(false);
      reset();
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [reset]);
  const pay = () =>
    checkout.mutate(order.id, {
      onSuccess: (url) => {
        setLeaving(true);
        window.location.assign(url);
      },
    });
  const confirming =
    returned === 'success' && order.payment_status === 'pending' && order.status !== 'cancelled' && order.status !== 'expired';
  const [since] = useState(() => Date.now());
  const [slow, setSlow] = useState(false);

  useEffect(() => {
    if (!confirming) return;
    const timer = setTimeout(() => setSlow(true), Math.max(0, SLOW_AFTER_MS - (Date.now() - since)));
    return () => clearTimeout(timer);
  }, [confirming, since]);
  useOrderLive(order.id, confirming);
  // An extra observer of the page's order query that polls it while the payment is being confirmed.
  useQuery({
    ...orderQueryOptions(order.id),
    refetchInterval: () => (confirming && Date.now() - since < POLL_FOR_MS ? (slow ? 5_000 : 1_500) : false),
  });
  // The ledger and the balance follow the status the database derives from the ledger.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: orderKeys.payments(order.id) });
    void queryClient.invalidateQueries({ queryKey: orderKeys.balance(order.id) });
  }, [order.payment_status, order.id, queryClient]);

  const mode = balance?.payment_mode;
  const payable = canPayOnline(order, balance) && !confirming;
  const busy = checkout.isPending || leaving;
  const justPaid = returned === 'success' && order.payment_status === 'paid';
  const lapsed = paymentLapsed(balance) && order.payment_status === 'pending' && !confirming;
  if (!payable && !confirming && !justPaid && !lapsed && returned !== 'cancelled') return null;

  const amount = formatEuro(balance?.outstanding_cents ?? order.price_cents, i18n.locale);
  return (
    <Section title={t`Online bezahlen`} aria-label={t`Online bezahlen`} className="rounded-xl border border-sky-200 bg-sky-50 p-4">
      {confirming && (
        <div role="status" className="flex flex-col gap-1 text-sky-950" data-testid="payment-confirming">
          <p className="flex items-center gap-2 font-medium">
            <Loader2 className="size-4 animate-spin motion-reduce:animate-none" aria-hidden />
            <Trans>Zahlung wird bestätigt …</Trans>
          </p>
          {slow && (
            <p className="text-sm">
              <Trans>
                Die Bestätigung dauert länger als üblich. Sie müssen nichts weiter tun: Sobald die Zahlung eingegangen ist, erscheint sie
                hier, und Sie erhalten eine E-Mail. Bitte bezahlen Sie nicht noch einmal.
              </Trans>
            </p>
          )}
        </div>
      )}
      {justPaid && (
        <p role="status" className="rounded-md bg-green-50 p-3 font-medium text-green-950" data-testid="payment-paid">
          <Trans>Bezahlt – vielen Dank! Ihre Zahlung ist eingegangen.</Trans>
        </p>
      )}
      {returned === 'cancelled' && order.payment_status === 'pending' && (
        <p role="status" className="rounded-md bg-white p-3 text-slate-900">
          <Trans>Die Zahlung wurde abgebrochen. Es wurde nichts abgebucht.</Trans>
          {payable && (
            <>
              {' '}
              <Trans>Sie können jederzeit erneut bezahlen.</Trans>
            </>
          )}
        </p>
      )}
      {lapsed && (
        <FormAlert data-testid="payment-lapsed" variant="warning" box>
          <Trans>
            Die Zahlungsfrist ist abgelaufen: Die Buchung verfällt, und der Liegeplatz ist wieder frei. Sie können ihn neu buchen, wenn er
            noch verfügbar ist.
          </Trans>
        </FormAlert>
      )}
      {payable && (
        <>
          {balance?.pay_by && (
            <p className="max-w-prose font-medium text-sky-950" data-testid="payment-deadline">
              <Trans>
                Bitte bezahlen Sie bis {formatBerlinDateTime(balance.pay_by, i18n.locale)}, sonst verfällt die Buchung und der Liegeplatz
                wird wieder frei.
              </Trans>
            </p>
          )}
          <p className="max-w-prose text-slate-800">
            {mode === 'online_required' ? (
              variant === 'result' ? (
                <Trans>
                  Nächster Schritt: Bitte bezahlen Sie Ihre Buchung jetzt online ({amount}). Sie werden dazu auf die sichere Zahlungsseite
                  unseres Zahlungsdienstleisters Stripe weitergeleitet.
                </Trans>
              ) : (
                <Trans>
                  Diese Buchung wird online bezahlt ({amount}). Sie werden dazu auf die sichere Zahlungsseite unseres Zahlungsdienstleisters
                  Stripe weitergeleitet.
                </Trans>
              )
            ) : (
              <Trans>
                Sie können jetzt online mit Karte bezahlen ({amount}) oder später im Hafenbüro. Online werden Sie auf die sichere
                Zahlungsseite unseres Zahlungsdienstleisters Stripe weitergeleitet.
              </Trans>
            )}
          </p>
          <div>
            <Button size="lg" disabled={busy} aria-busy={busy} onClick={pay}>
              {busy ? <Loader2 className="animate-spin motion-reduce:animate-none" aria-hidden /> : <CreditCard aria-hidden />}
              {busy ? <Trans>Weiterleitung zur Zahlung …</Trans> : <Trans>Jetzt online bezahlen</Trans>}
            </Button>
          </div>
          {checkout.isError && (
            <FormAlert className="text-sm">
              {errorMessage(checkout.error, {
                fallback: msg`Die Zahlung konnte nicht gestartet werden. Es wurde nichts abgebucht. Bitte versuchen Sie es noch einmal.`,
              })}
            </FormAlert>
          )}
        </>
      )}
    </Section>
  );
}

/** The payment status in words and the payments of the order (date in Berlin, method, amount). */
export function PaymentSummary({ order }: { order: Order }) {
  const { t, i18n } = useLingui();
  const paymentLabel = usePaymentLabel();
  const methodLabel = usePaymentMethodLabel();
  const balance = useQuery(orderBalanceQueryOptions(order.id)).data;
  const payments = useQuery(orderPaymentsQueryOptions(order.id));
  const rows = payments.data ?? [];
  const tone =
    order.payment_status === 'paid'
      ? 'bg-green-50 text-green-950'
      : order.payment_status === 'pending'
        ? 'bg-sky-50 text-sky-950'
        : 'bg-slate-100 text-slate-900';
  // While the pay-online panel is shown it already says how to pay (online or at the office):
  // the status then says only that the payment is open, not the same again.
  const label = canPayOnline(order, balance) ? t`Zahlung offen` : paymentLabel(order.payment_status, balance?.payment_mode);
  return (
    <>
      <p className={cn('rounded-md p-3', tone)} data-testid="payment-status">
        {label}
      </p>
      {rows.length > 0 && (
        <ul aria-label={t`Zahlungen`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {rows.map((p) => (
            <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-2">
              <span className="text-slate-800">
                {/* A payment row that refers to a refund reverses it: the bank did not take the refund. */}
                {p.kind === 'refund' ? (
                  <Trans>Erstattung</Trans>
                ) : p.refund_of ? (
                  <Trans>Erstattung fehlgeschlagen, zurückgebucht</Trans>
                ) : (
                  <Trans>Zahlung</Trans>
                )}
                , {methodLabel(p.method)}
                <span className="block text-sm text-slate-600">{formatBerlinDateTime(p.recorded_at, i18n.locale)}</span>
              </span>
              <span className="font-semibold whitespace-nowrap text-slate-900">
                {formatEuro(p.kind === 'refund' ? -p.amount_cents : p.amount_cents, i18n.locale)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
