import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Prose, Section } from '@/components/page';
import { Button, buttonVariants } from '@/components/ui/button';
import { identityQueryOptions } from '@/lib/auth';
import { berlinDay, berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { orderKeys } from '@/features/orders/api/keys';
import { harbourAccessQueryOptions, useCheckIn } from '@/features/orders/api/order-actions';
import { arrivingTodayQueryOptions, orderQueryOptions } from '@/features/orders/api/order';
import type { Order } from '@/features/orders/api/types';
import type { VerifySlot } from '@/features/orders/components/order-view';
import { errorMessage } from '@/lib/errors/guest-messages';
import { FormAlert } from '@/components/form-alert';

/** /order/{id?}/check-in: with an id that order; without one, the visitor's orders arriving today. */
export function CheckInPage({ id, verify }: { id?: string; verify: VerifySlot }) {
  const { t } = useLingui();
  return (
    <Page title={t`Check-in`} lead={t`Einchecken ist am Anreisetag möglich; danach sehen Sie den Türcode und das WLAN.`}>
      {id ? <CheckInOrder id={id} verify={verify} /> : <ArrivingToday verify={verify} />}
    </Page>
  );
}

function ArrivingToday({ verify }: { verify: VerifySlot }) {
  const { i18n } = useLingui();
  const queryClient = useQueryClient();
  const { data: orders } = useSuspenseQuery(arrivingTodayQueryOptions());
  if (orders.length === 0) {
    return (
      <div className="flex flex-col gap-4">
        <Prose>
          <p>
            <Trans>
              Für heute ist hier keine Anreise zu finden. Melden Sie sich mit der E-Mail-Adresse Ihrer Buchung an, dann erscheint sie.
            </Trans>
          </p>
        </Prose>
        {verify({ onVerified: () => void queryClient.invalidateQueries({ queryKey: orderKeys.all }) })}
      </div>
    );
  }
  return (
    <ul className="flex flex-col gap-3">
      {orders.map((o) => (
        <li key={o.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white p-4">
          <span>
            <Trans>
              Liegeplatz {o.place_snapshot.name}, Anreise {formatBerlinDateTime(o.starts_at, i18n.locale)}
            </Trans>
          </span>
          <Link to="/{-$locale}/order/{-$id}/check-in" params={{ id: o.id }} className={buttonVariants()}>
            <Trans>Zum Check-in</Trans>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function CheckInOrder({ id, verify }: { id: string; verify: VerifySlot }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { data: order } = useSuspenseQuery(orderQueryOptions(id));
  const identity = useQuery(identityQueryOptions);
  const checkIn = useCheckIn();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: orderKeys.all });
  if (!order) {
    return (
      <div className="flex flex-col gap-4">
        <Prose>
          <p>
            <Trans>Diese Buchung ist hier nicht zu sehen. Melden Sie sich mit der E-Mail-Adresse der Buchung per Code an.</Trans>
          </p>
        </Prose>
        {verify({ onVerified: refresh })}
      </div>
    );
  }
  if (order.status === 'checked_in') return <CheckedIn order={order} />;
  if (order.status !== 'confirmed' && order.status !== 'unverified') {
    return (
      <p role="status">
        <Trans>Für diese Buchung ist kein Check-in möglich.</Trans>
      </p>
    );
  }
  const arrivalDay = berlinDay(order.starts_at);
  const today = berlinToday();
  if (arrivalDay !== today) {
    const day = formatDay(arrivalDay, i18n.locale);
    return (
      <p role="status" className="rounded-md bg-sky-50 p-3 text-sky-950">
        {arrivalDay > today ? (
          <Trans>Einchecken können Sie am Anreisetag, {day}.</Trans>
        ) : (
          <Trans>Der Anreisetag ({day}) ist vorbei; ein Check-in ist nur noch im Hafenbüro möglich.</Trans>
        )}
      </p>
    );
  }
  const verified = order.status === 'confirmed' && identity.data?.status === 'loggedIn';
  if (!verified) {
    return (
      <div className="flex flex-col gap-4">
        <p role="status" className="rounded-md bg-amber-50 p-3 text-amber-950">
          <Trans>
            Zum Einchecken brauchen wir Ihre bestätigte E-Mail-Adresse. Bitte bestätigen Sie sie mit dem Code, den wir Ihnen senden.
          </Trans>
        </p>
        {verify({ defaultEmail: order.email, onVerified: refresh })}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <FactList
        items={[
          { label: t`Liegeplatz`, value: order.place_snapshot.name },
          { label: t`Anreise`, value: formatBerlinDateTime(order.starts_at, i18n.locale) },
        ]}
      />
      {checkIn.isError && <FormAlert className="text-sm">{errorMessage(checkIn.error)}</FormAlert>}
      <div>
        <Button
          size="lg"
          disabled={checkIn.isPending}
          onClick={() =>
            checkIn.mutate(order.id, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: orderKeys.harbourAccess() }) })
          }
        >
          <Trans>Jetzt einchecken</Trans>
        </Button>
      </div>
    </div>
  );
}

function CheckedIn({ order }: { order: Order }) {
  const { t, i18n } = useLingui();
  const access = useQuery(harbourAccessQueryOptions());
  return (
    <div className="flex flex-col gap-4">
      <p role="status" className="rounded-md bg-green-50 p-3 text-green-950">
        <Trans>
          Willkommen im Hafen! Eingecheckt am {formatBerlinDateTime(order.checked_in_at ?? order.starts_at, i18n.locale)}, Liegeplatz{' '}
          {order.place_snapshot.name}.
        </Trans>
      </p>
      {access.data ? (
        <Section title={t`Türcode und WLAN`}>
          <FactList
            items={[
              { label: t`Türcode`, value: <span data-testid="door-code">{access.data.door_code}</span> },
              { label: t`WLAN-Name`, value: access.data.wifi_ssid },
              { label: t`WLAN-Passwort`, value: <span data-testid="wifi-password">{access.data.wifi_password}</span> },
            ]}
          />
        </Section>
      ) : access.isPending ? (
        <p role="status">
          <Trans>Einen Moment …</Trans>
        </p>
      ) : (
        <p role="status">
          <Trans>Türcode und WLAN sind nur mit bestätigter E-Mail-Adresse zu sehen. Bitte melden Sie sich an.</Trans>
        </p>
      )}
    </div>
  );
}
