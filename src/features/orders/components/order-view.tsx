import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Prose, Section } from '@/components/page';
import { PriceBreakdown } from '@/components/price-breakdown';
import { buttonVariants } from '@/components/ui/button';
import { formatEuro } from '@/lib/prices';
import { berlinDay, berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { orderKeys } from '@/features/orders/api/keys';

import { CancelOrderDialog } from '@/features/orders/components/cancel-order-dialog';
import { orderQueryOptions } from '@/features/orders/api/order';
import { orderDocumentsQueryOptions } from '@/features/orders/api/invoices';
import { OrderDocumentsList } from '@/features/orders/components/invoice-document';
import type { Order } from '@/features/orders/api/types';
import { PayOnline, PaymentSummary, type PaymentReturn } from '@/features/orders/components/order-payment';
import { OrderStatusBadge } from '@/features/orders/components/order-status';
import { ClosureNotice } from '@/features/orders/components/closure-notice';
import { closureNoticeQueryOptions } from '@/features/orders/api/closure-notice';
import { errorMessage } from '@/lib/errors/guest-messages';
import { FormAlert } from '@/components/form-alert';

export type VerifySlot = (props: { defaultEmail?: string; onVerified: () => void }) => ReactNode;

/**
 * /order/{id} and /start/booking/result/{id}: the order for its owner (a guest on their device;
 * after verifying, from any device), with cancel before arrival and the way to check-in.
 */
export function OrderPage({
  id,
  variant = 'order',
  verify,
  payment,
}: {
  id: string;
  variant?: 'order' | 'result';
  verify: VerifySlot;
  payment?: PaymentReturn;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { data: order } = useSuspenseQuery(orderQueryOptions(id));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: orderKeys.all });
  if (!order) {
    return (
      <Page title={t`Ihre Buchung`}>
        <Prose>
          <p>
            <Trans>
              Diese Buchung ist hier nicht zu sehen. Melden Sie sich mit der E-Mail-Adresse der Buchung an – per Code, auch ohne Passwort –,
              dann erscheint sie.
            </Trans>
          </p>
        </Prose>
        {verify({ onVerified: refresh })}
      </Page>
    );
  }
  // Thanks only while the booking stands: a cancelled or lapsed one says so instead (OrderOutcome).
  // An unverified one is not done yet: the page asks for the code first (issue 40 item 9).
  const thanks = variant === 'result' && order.status === 'confirmed';
  const toConfirm = variant === 'result' && order.status === 'unverified';
  return (
    <Page
      title={thanks ? t`Vielen Dank für Ihre Buchung` : toConfirm ? t`Bitte bestätigen Sie Ihre Buchung` : t`Ihre Buchung`}
      lead={
        thanks
          ? t`Ihre Buchung ist eingegangen. Eine Bestätigung mit Kalendereintrag geht an ${order.email}.`
          : toConfirm
            ? t`Ihre Buchung ist vorgemerkt. Sie gilt erst, wenn Sie sie mit dem Code aus unserer E-Mail an ${order.email} bestätigen.`
            : undefined
      }
    >
      <OrderDetails order={order} verify={verify} onChanged={refresh} payment={payment} variant={variant} />
    </Page>
  );
}

/** The order's invoice documents, each opening its stored rendering. */
function OrderDocuments({ orderId }: { orderId: string }) {
  const { t } = useLingui();
  const documents = useQuery(orderDocumentsQueryOptions(orderId));
  if (documents.isPending || (documents.isSuccess && documents.data.length === 0)) return null;
  return (
    <Section title={t`Belege`} aria-label={t`Belege`}>
      {documents.isError ? (
        <FormAlert>{errorMessage(documents.error)}</FormAlert>
      ) : (
        <OrderDocumentsList
          documents={documents.data}
          link={(doc, label) => (
            <Link
              to="/{-$locale}/order/$id/documents/$documentId"
              params={{ id: orderId, documentId: doc.id }}
              className="font-medium text-primary-dark underline underline-offset-4"
            >
              {label}
            </Link>
          )}
        />
      )}
    </Section>
  );
}

export function OrderDetails({
  order,
  verify,
  onChanged,
  payment,
  variant = 'order',
}: {
  order: Order;
  verify: VerifySlot;
  onChanged: () => void;
  /** Back from Stripe Checkout (?payment=). */
  payment?: PaymentReturn;
  variant?: 'order' | 'result';
}) {
  const { t, i18n } = useLingui();
  const [now] = useState(() => Date.now());
  const beforeArrival = now < new Date(order.starts_at).getTime();
  const cancellable = (order.status === 'unverified' || order.status === 'confirmed') && beforeArrival;
  const arrivalDay = berlinDay(order.starts_at);
  const checkInToday = (order.status === 'confirmed' || order.status === 'unverified') && arrivalDay === berlinToday();
  // A closure notice offers the free cancellation itself (ClosureNotice): no second cancel button.
  const closure = useQuery(closureNoticeQueryOptions(order.id));
  const kindLabel = order.kind === 'day' ? t`Tagesliegeplatz` : order.kind === 'fair' ? t`Messe-Liegeplatz` : t`Übernachtung`;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <OrderStatusBadge status={order.status} />
        <span className="text-sm text-slate-700" data-testid="booking-number">
          <Trans>
            Buchungsnummer <span className="font-mono font-semibold tracking-wide">{order.booking_number}</span>
          </Trans>
        </span>
      </div>

      <OrderOutcome order={order} />

      <ClosureNotice order={order} onChanged={onChanged} />

      {order.status === 'unverified' && (
        <div className="flex flex-col gap-3 rounded-md bg-amber-50 p-4 text-amber-950">
          <p role="status" className="font-semibold">
            {order.expires_at ? (
              <Trans>
                Unbestätigt: Die Buchung verfällt am {formatBerlinDateTime(order.expires_at, i18n.locale)}, wenn Sie sie nicht vorher
                bestätigen. Dann wird der Liegeplatz wieder frei.
              </Trans>
            ) : (
              <Trans>Ihre E-Mail-Adresse ist noch nicht bestätigt.</Trans>
            )}
          </p>
          <p className="text-sm">
            <Trans>Online bezahlen können Sie, sobald die Buchung bestätigt ist.</Trans>
          </p>
          {verify({ defaultEmail: order.email, onVerified: onChanged })}
        </div>
      )}

      {/* Payment only for a confirmed booking (issue 40 item 9): not for one that may lapse unconfirmed. */}
      {order.status !== 'unverified' && <PayOnline order={order} returned={payment} variant={variant} />}

      <Section title={t`Aufenthalt`}>
        <FactList
          items={[
            { label: t`Liegeplatz`, value: order.place_snapshot.name },
            { label: t`Art`, value: kindLabel },
            { label: order.kind === 'day' ? t`Beginn` : t`Anreise`, value: formatBerlinDateTime(order.starts_at, i18n.locale) },
            { label: order.kind === 'day' ? t`Ende` : t`Abreise`, value: formatBerlinDateTime(order.ends_at, i18n.locale) },
            {
              label: t`Boot`,
              value: `${order.boat.name}${order.boat.tag ? ` (${order.boat.tag})` : ''}, ${Number(order.boat.length).toLocaleString(i18n.locale)} m × ${Number(order.boat.width).toLocaleString(i18n.locale)} m`,
            },
            { label: t`Gebucht von`, value: `${order.person.first_name} ${order.person.last_name}, ${order.email}` },
            ...(order.checked_in_at ? [{ label: t`Eingecheckt`, value: formatBerlinDateTime(order.checked_in_at, i18n.locale) }] : []),
          ]}
        />
      </Section>

      <Section title={t`Preis und Zahlung`}>
        <PriceBreakdown quote={order.price_breakdown} />
        <PaymentSummary order={order} />
      </Section>

      <OrderDocuments orderId={order.id} />

      <div className="flex flex-wrap gap-3">
        {(checkInToday || order.status === 'checked_in') && (
          <Link to="/{-$locale}/order/{-$id}/check-in" params={{ id: order.id }} className={buttonVariants()}>
            {order.status === 'checked_in' ? <Trans>Türcode und WLAN</Trans> : <Trans>Einchecken</Trans>}
          </Link>
        )}
        {!checkInToday && (order.status === 'confirmed' || order.status === 'unverified') && (
          <p className="text-sm text-slate-700">
            <Trans>Einchecken können Sie am Anreisetag, {formatDay(arrivalDay, i18n.locale)}.</Trans>
          </p>
        )}
        {cancellable && !closure.data && <CancelOrderDialog orderId={order.id} onChanged={onChanged} />}
      </div>
    </div>
  );
}

/** What became of a booking that no longer stands, in plain words, and what happens next. */
function OrderOutcome({ order }: { order: Order }) {
  const { i18n } = useLingui();
  const refunded = order.payment_status === 'refunded';
  const partly = order.payment_status === 'partially_refunded';
  const kept = order.cancellation_kept_cents ?? 0;
  let text: ReactNode;
  if (order.status === 'cancelled') {
    text = (
      <>
        {order.cancelled_at ? (
          <Trans>
            Diese Buchung wurde am {formatBerlinDateTime(order.cancelled_at, i18n.locale)} storniert. Der Liegeplatz ist wieder frei.
          </Trans>
        ) : (
          <Trans>Diese Buchung wurde storniert. Der Liegeplatz ist wieder frei.</Trans>
        )}{' '}
        {refunded ? (
          <Trans>Der gezahlte Betrag wurde erstattet.</Trans>
        ) : kept > 0 && partly ? (
          <Trans>Der Hafen behält laut Stornobedingungen {formatEuro(kept, i18n.locale)}; der Rest wurde erstattet.</Trans>
        ) : kept > 0 ? (
          <Trans>
            Der Hafen behält laut Stornobedingungen {formatEuro(kept, i18n.locale)}. Den Rest erhalten Sie zurück: eine Kartenzahlung
            automatisch auf die Karte, eine Zahlung im Hafenbüro dort.
          </Trans>
        ) : order.payment_status === 'paid' || partly ? (
          <Trans>
            Was Sie bezahlt haben, erhalten Sie zurück: eine Kartenzahlung automatisch auf die Karte, eine Zahlung im Hafenbüro dort.
          </Trans>
        ) : (
          <Trans>Es ist nichts zu bezahlen.</Trans>
        )}
      </>
    );
  } else if (order.status === 'expired') {
    text = (
      <Trans>
        Diese Buchung ist verfallen, weil sie nicht rechtzeitig bestätigt oder bezahlt wurde. Der Liegeplatz ist wieder frei; es ist nichts
        zu bezahlen. Sie können gern neu buchen.
      </Trans>
    );
  } else if (order.status === 'completed') {
    text =
      refunded || partly ? (
        <Trans>Ihr Aufenthalt ist abgeschlossen. Ein Teil des Betrags wurde erstattet (siehe Zahlungen).</Trans>
      ) : (
        <Trans>Ihr Aufenthalt ist abgeschlossen. Vielen Dank für Ihren Besuch im Hafen Düsseldorf!</Trans>
      );
  } else {
    return null;
  }
  return (
    <div role="status" className="flex flex-col gap-3 rounded-md bg-slate-100 p-4 text-slate-900" data-testid="order-outcome">
      <p>{text}</p>
      {(order.status === 'cancelled' || order.status === 'expired') && (
        <div>
          <Link to="/{-$locale}/start/booking" className={buttonVariants({ variant: 'outline' })}>
            <Trans>Neue Buchung</Trans>
          </Link>
        </div>
      )}
    </div>
  );
}
