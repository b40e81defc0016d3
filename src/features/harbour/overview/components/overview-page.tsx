import { useQuery } from '@tanstack/react-query';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { formatBerlinDateTime, formatBerlinTime } from '@/lib/dates';
import { identityQueryOptions, isAdmin } from '@/lib/auth';
import { overviewQueryOptions, type OverviewOrder } from '@/features/harbour/overview/api/overview';
import { useCalendarRealtime } from '@/features/harbour/shared/use-calendar-realtime';
import { useInboxRealtime, useMessageKindLabel } from '@/features/harbour/inbox';
import { OverviewFigures } from '@/features/harbour/overview/components/overview-figures';
import { ClosureStays } from '@/features/harbour/overview/components/closure-stays';
import { HarbourStatusOverride } from '@/features/harbour/overview/components/harbour-status-override';
import { FormAlert } from '@/components/form-alert';

function OrderList({ orders, empty, detail }: { orders: OverviewOrder[]; empty: string; detail: (o: OverviewOrder) => string }) {
  if (orders.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return (
    <ul className="grid gap-1 text-sm">
      {orders.map((o) => (
        <li key={o.id} className="rounded border border-slate-200 bg-white px-3 py-2">
          <strong>{o.place_snapshot.name}</strong> · {o.person.first_name} {o.person.last_name} · {o.boat.name}
          <span className="block text-slate-600">{detail(o)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * Today's harbour: figures at a glance, berths free now (a count, the names on request),
 * arrivals still expected (and those already arrived apart), departures, who is checked in, pending payments,
 * unverified orders about to expire, open messages, money to pay back and new long-term
 * applications (live).
 */
export function OverviewPage() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  useCalendarRealtime();
  useInboxRealtime();
  const kindLabel = useMessageKindLabel();
  const { data: identity } = useQuery(identityQueryOptions);
  const { data, error, isPending } = useQuery(overviewQueryOptions());
  const euro = (cents: number) =>
    new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE', { style: 'currency', currency: 'EUR' }).format(cents / 100);
  if (error)
    return (
      <Page title={t`Übersicht`}>
        <FormAlert>
          <Trans>Die Übersicht konnte nicht geladen werden.</Trans>
        </FormAlert>
      </Page>
    );
  if (isPending)
    return (
      <Page title={t`Übersicht`}>
        <p>
          <Trans>Lädt…</Trans>
        </p>
      </Page>
    );
  const blocks = [
    {
      title: t`Abreisen heute`,
      orders: data.departures,
      empty: t`Heute reist niemand ab.`,
      detail: (o: OverviewOrder) => t`bis ${formatBerlinTime(o.ends_at)}`,
    },
    {
      title: t`Eingecheckt`,
      orders: data.checkedIn,
      empty: t`Niemand ist eingecheckt.`,
      detail: (o: OverviewOrder) => t`bis ${formatBerlinDateTime(o.ends_at, locale)}`,
    },
    {
      title: t`Offene Zahlungen`,
      orders: data.pendingPayments,
      empty: t`Keine offenen Zahlungen.`,
      detail: (o: OverviewOrder) => `${euro(o.price_cents)} · ${formatBerlinDateTime(o.starts_at, locale)}`,
    },
    {
      title: t`Unbestätigt, läuft bald ab`,
      orders: data.expiringSoon,
      empty: t`Keine unbestätigten Buchungen, die bald ablaufen.`,
      detail: (o: OverviewOrder) => t`läuft ab ${o.expires_at ? formatBerlinDateTime(o.expires_at, locale) : ''}`,
    },
  ];
  return (
    <Page title={t`Übersicht`}>
      <OverviewFigures />
      <ClosureStays />
      <HarbourStatusOverride />
      <Section
        aria-label={t`Jetzt frei`}
        title={
          <>
            {t`Jetzt frei`} <span className="text-slate-500">({data.freeNow.length})</span>
          </>
        }
      >
        {data.freeNow.length === 0 ? (
          <p className="text-sm text-slate-600">
            <Trans>Gerade ist kein Liegeplatz frei.</Trans>
          </p>
        ) : (
          // A count first; the names (53 on a quiet day) only on request, or in the calendar.
          <details className="text-sm">
            <summary className="cursor-pointer text-primary-dark underline underline-offset-4">
              <Plural
                value={data.freeNow.length}
                one="# Liegeplatz ist gerade frei: Namen zeigen"
                other="# Liegeplätze sind gerade frei: Namen zeigen"
              />
            </summary>
            <ul className="mt-2 flex flex-wrap gap-1">
              {data.freeNow.map((p) => (
                <li key={p.id} className="rounded border border-slate-200 bg-white px-2 py-0.5">
                  {p.name}
                </li>
              ))}
            </ul>
          </details>
        )}
        <PathLink path="/account/admin/calendar" className="text-sm text-primary-dark underline">
          <Trans>Zum Kalender</Trans>
        </PathLink>
      </Section>
      <div className="grid gap-6 md:grid-cols-2">
        <Section
          aria-label={t`Anreisen heute`}
          title={
            <>
              {t`Anreisen heute`} <span className="text-slate-500">({data.arrivals.length})</span>
            </>
          }
        >
          <OrderList
            orders={data.arrivals}
            empty={data.arrived.length > 0 ? t`Alle Anreisen von heute sind angekommen.` : t`Heute reist niemand an.`}
            detail={(o) => t`ab ${formatBerlinTime(o.starts_at)}`}
          />
          {data.arrived.length > 0 && (
            <div data-testid="arrived-today" className="text-sm text-slate-700">
              <h3 className="font-medium">
                <Plural value={data.arrived.length} one="# schon angekommen" other="# schon angekommen" />
              </h3>
              <ul className="mt-1 grid gap-0.5">
                {data.arrived.map((o) => (
                  <li key={o.id}>
                    ✓ <strong>{o.place_snapshot.name}</strong> · {o.person.first_name} {o.person.last_name} · {o.boat.name}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </Section>
        {blocks.map((b) => (
          <Section
            key={b.title}
            aria-label={b.title}
            title={
              <>
                {b.title} <span className="text-slate-500">({b.orders.length})</span>
              </>
            }
          >
            <OrderList orders={b.orders} empty={b.empty} detail={b.detail} />
          </Section>
        ))}
        <Section
          aria-label={t`Offene Anfragen und Nachrichten`}
          title={
            <>
              {t`Offene Anfragen und Nachrichten`} <span className="text-slate-500">({data.openMessagesTotal})</span>
            </>
          }
        >
          {data.openMessages.length === 0 ? (
            <p className="text-sm text-slate-600">
              <Trans>Keine offenen Anfragen.</Trans>
            </p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {data.openMessages.map((m) => (
                <li key={m.id} className="rounded border border-slate-200 bg-white px-3 py-2">
                  <strong>{kindLabel(m)}</strong> · {m.name}
                  <span className="block text-slate-600">{formatBerlinDateTime(m.created_at, locale)}</span>
                </li>
              ))}
            </ul>
          )}
          <PathLink path="/account/admin/inbox" className="text-sm text-primary-dark underline">
            <Trans>Zum Posteingang</Trans>
          </PathLink>
        </Section>
        <Section
          aria-label={t`Geld zurückzuzahlen`}
          title={
            <>
              {t`Geld zurückzuzahlen`} <span className="text-slate-500">({data.moneyToReturnTotal})</span>
            </>
          }
        >
          {data.moneyToReturn.length === 0 ? (
            <p className="text-sm text-slate-600">
              <Trans>Nichts zurückzuzahlen.</Trans>
            </p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {data.moneyToReturn.map((m) => (
                <li key={m.order_id} className="rounded border border-slate-200 bg-white px-3 py-2">
                  <PathLink path={`/account/admin/orders/${m.order_id}`} className="font-semibold text-primary-dark underline">
                    {m.booking_number}
                  </PathLink>{' '}
                  · {m.first_name} {m.last_name}
                  {m.place_name ? <> · {t`Liegeplatz ${m.place_name}`}</> : null}
                  {m.failed_refund_cents > 0 && (
                    <span className="block text-slate-600">{t`Erstattung fehlgeschlagen: ${euro(m.failed_refund_cents)}`}</span>
                  )}
                  {m.to_refund_cents > 0 && (
                    <span
                      className="block text-slate-600"
                      data-testid="money-owed"
                    >{t`Dem Gast zurückzuzahlen: ${euro(m.to_refund_cents)}`}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section
          aria-label={t`Neue Bewerbungen für Langzeitliegeplätze`}
          title={
            <>
              {t`Neue Bewerbungen für Langzeitliegeplätze`} <span className="text-slate-500">({data.applicationsTotal})</span>
            </>
          }
        >
          {data.applications.length === 0 ? (
            <p className="text-sm text-slate-600">
              <Trans>Keine offenen Bewerbungen.</Trans>
            </p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {data.applications.map((a) => (
                <li key={a.id} className="rounded border border-slate-200 bg-white px-3 py-2">
                  <strong>
                    {a.first_name} {a.last_name}
                  </strong>
                  {a.place_name ? <> · {t`Liegeplatz ${a.place_name}`}</> : <> · {t`jeder passende Liegeplatz`}</>}
                  <span className="block text-slate-600">{formatBerlinDateTime(a.created_at, locale)}</span>
                </li>
              ))}
            </ul>
          )}
          {isAdmin(identity) && (
            <PathLink path="/account/admin/places" className="text-sm text-primary-dark underline">
              <Trans>Zu den Liegeplätzen</Trans>
            </PathLink>
          )}
        </Section>
      </div>
    </Page>
  );
}
