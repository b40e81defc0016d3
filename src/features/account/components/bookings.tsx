import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Prose } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { OrderStatusBadge, type Order } from '@/features/orders';
import { berlinDay, berlinToday, formatBerlinDateTime } from '@/lib/dates';
import { myBookingsQueryOptions, nextBooking } from '@/features/account/api/bookings';
import { FormAlert } from '@/components/form-alert';

/** One booking as a row: berth, arrival and departure, status; links to the order and check-in. */
export function BookingRow({ order }: { order: Order }) {
  const { i18n } = useLingui();
  const arrivesToday = berlinDay(order.starts_at) === berlinToday();
  return (
    <li
      data-testid="booking"
      data-starts-at={order.starts_at}
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <span className="flex flex-col gap-1">
        <span className="font-semibold">
          <Trans>Liegeplatz {order.place_snapshot.name}</Trans> · {order.boat.name}
        </span>
        <span className="text-sm text-slate-700">
          {formatBerlinDateTime(order.starts_at, i18n.locale)} – {formatBerlinDateTime(order.ends_at, i18n.locale)}
        </span>
        <span>
          <OrderStatusBadge status={order.status} />
        </span>
      </span>
      <span className="flex flex-wrap gap-2">
        {arrivesToday && order.status === 'confirmed' && (
          <Link to="/{-$locale}/account/bookings/$id/check-in" params={{ id: order.id }} className={buttonVariants()}>
            <Trans>Zum Check-in</Trans>
          </Link>
        )}
        <Link to="/{-$locale}/account/bookings/$id" params={{ id: order.id }} className={buttonVariants({ variant: 'outline' })}>
          <Trans>Details</Trans>
        </Link>
      </span>
    </li>
  );
}

/** /account/bookings: all of the customer's bookings, current and upcoming first by arrival, then past ones (orderBookings). */
export function MyBookingsPage() {
  const { t } = useLingui();
  const { data: orders, isPending, isError } = useQuery(myBookingsQueryOptions());
  return (
    <Page title={t`Meine Buchungen`}>
      {isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : isError ? (
        <FormAlert>
          <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
        </FormAlert>
      ) : orders.length === 0 ? (
        <Prose>
          <p>
            <Trans>Sie haben noch keine Buchungen.</Trans>
          </p>
        </Prose>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t`Meine Buchungen`}>
          {orders.map((o) => (
            <BookingRow key={o.id} order={o} />
          ))}
        </ul>
      )}
    </Page>
  );
}

/** The account page's overview: the next stay and a reminder for bookings still to be verified. */
export function NextBookingSection() {
  const { t } = useLingui();
  const { data: orders } = useQuery(myBookingsQueryOptions());
  if (!orders) return null;
  const next = nextBooking(orders);
  const unverified = orders.filter((o) => o.status === 'unverified');
  return (
    <section aria-label={t`Nächste Buchung`} className="flex flex-col gap-3">
      {unverified.length > 0 && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <Trans>Bitte bestätigen Sie Ihre E-Mail-Adresse: unbestätigte Buchungen verfallen nach 24 Stunden.</Trans>{' '}
          <Link to="/{-$locale}/account/bookings/$id" params={{ id: unverified[0]!.id }} className="underline">
            <Trans>Jetzt bestätigen</Trans>
          </Link>
        </p>
      )}
      <h2 className="text-lg font-semibold">
        <Trans>Nächste Buchung</Trans>
      </h2>
      {next ? (
        <ul>
          <BookingRow order={next} />
        </ul>
      ) : (
        <p className="text-sm text-slate-700">
          <Trans>Keine anstehende Buchung.</Trans>{' '}
          <Link to="/{-$locale}/start/booking" className="underline">
            <Trans>Liegeplatz buchen</Trans>
          </Link>
        </p>
      )}
    </section>
  );
}
