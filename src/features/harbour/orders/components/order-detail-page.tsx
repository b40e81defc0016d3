import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Section } from '@/components/page';
import { PriceBreakdown } from '@/components/price-breakdown';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button, buttonVariants } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Label } from '@/components/ui/label';
import { OrderStatusBadge, usePaymentMethodLabel, OrderDocumentsList } from '@/features/orders';
import { berlinToday, berlinDay, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { formatSize } from '@/lib/numbers';
import { formatEuro } from '@/lib/prices';
import { messages } from '@/lib/validation';
import {
  moveTargetsQueryOptions,
  orderDetailQueryOptions,
  rescheduleQuoteQueryOptions,
  useOrderAction,
  type OrderAction,
  type OrderDetail,
} from '@/features/harbour/orders/api/orders';
import { useCalendarRealtime } from '@/features/harbour/shared/use-calendar-realtime';
import { useKindLabel, usePaymentShortLabel, useStatusLabel } from '@/features/harbour/orders/components/orders-labels';
import { OrderExtrasSection } from '@/features/harbour/orders/components/order-extras-section';
import { NotifyGuestTick } from '@/features/harbour/orders/components/notify-guest-tick';
import { OrderMails } from '@/features/harbour/orders/components/order-mails';
import { PaymentsPanel } from '@/features/harbour/orders/components/payments-panel';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

const noteSchema = () =>
  z.object({
    body: z
      .string()
      .trim()
      .min(1, { error: messages.required })
      .max(2000, { error: () => messages.max(2000) }),
  });

/** A button that asks before it acts (cancel, move); with `notifyEmail`, the dialog offers the e-mail tick. */
function ConfirmButton({
  label,
  title,
  description,
  confirm,
  variant,
  disabled,
  notifyEmail,
  onConfirm,
}: {
  label: string;
  title: string;
  description: ReactNode;
  confirm: string;
  variant?: 'default' | 'outline' | 'destructive';
  disabled?: boolean;
  notifyEmail?: string | null;
  onConfirm: (notify: boolean) => void;
}) {
  const [open, setOpen] = useState(false);
  const [notify, setNotify] = useState(true);
  return (
    <>
      <Button
        variant={variant ?? 'default'}
        disabled={disabled}
        onClick={() => {
          setNotify(true);
          setOpen(true);
        }}
      >
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={confirm}
        destructive={variant === 'destructive'}
        onConfirm={() => {
          setOpen(false);
          onConfirm(notify);
        }}
      >
        {notifyEmail !== undefined && <NotifyGuestTick email={notifyEmail} checked={notify} onChange={setNotify} />}
      </ConfirmDialog>
    </>
  );
}

function MoveSection({ detail, run, busy }: { detail: OrderDetail; run: (a: OrderAction, done: string) => void; busy: boolean }) {
  const { t, i18n } = useLingui();
  const targets = useQuery(moveTargetsQueryOptions(detail.order.id));
  const [placeId, setPlaceId] = useState('');
  const chosen = targets.data?.find((p) => p.place_id === placeId);
  const from = detail.order.place_snapshot.name;
  const to = chosen?.name ?? '';
  return (
    <Section title={t`Umlegen`} aria-label={t`Umlegen`}>
      {targets.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : targets.isError ? (
        <FormAlert>{staffErrorMessage(targets.error)}</FormAlert>
      ) : targets.data.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>Kein anderer passender Liegeplatz ist für den ganzen Aufenthalt frei.</Trans>
        </p>
      ) : (
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex min-w-0 max-w-full flex-col gap-1">
            <Label htmlFor="move-target">
              <Trans>Neuer Liegeplatz</Trans>
            </Label>
            <select
              id="move-target"
              className="h-9 max-w-full rounded-md border border-slate-300 bg-white px-2"
              value={placeId}
              onChange={(e) => setPlaceId(e.target.value)}
            >
              <option value="">
                <Trans>Bitte wählen</Trans>
              </option>
              {targets.data.map((p) => (
                <option key={p.place_id} value={p.place_id}>{`${p.name} (${formatSize(p.length, p.width, i18n.locale)})`}</option>
              ))}
            </select>
          </div>
          <ConfirmButton
            label={t`Umlegen`}
            variant="outline"
            disabled={!chosen || busy}
            title={t`Buchung umlegen?`}
            description={
              <Trans>
                Die Buchung wird von Liegeplatz {from} auf Liegeplatz {to} umgelegt; Zeitraum und Preis bleiben gleich.
              </Trans>
            }
            confirm={t`Umlegen`}
            notifyEmail={detail.order.email}
            onConfirm={(notify) => {
              run({ type: 'move', orderId: detail.order.id, placeId, notify }, t`Auf Liegeplatz ${to} umgelegt.`);
              setPlaceId('');
            }}
          />
        </div>
      )}
    </Section>
  );
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The new dates of a stay: real days, the departure after the arrival (a day stay has no departure). */
const datesSchema = (dayStay: boolean, m: { invalid: string; order: string }) =>
  z
    .object({
      arrival: z.string().regex(ISO_DAY, { error: m.invalid }),
      departure: z.string(),
    })
    .superRefine((v, ctx) => {
      if (dayStay) return;
      if (!ISO_DAY.test(v.departure)) ctx.addIssue({ code: 'custom', path: ['departure'], message: m.invalid });
      else if (ISO_DAY.test(v.arrival) && v.departure <= v.arrival) ctx.addIssue({ code: 'custom', path: ['departure'], message: m.order });
    });

/**
 * Other dates for the stay, on its berth: the database's price for them (reschedule_quote) or
 * its reason why not, then reschedule_booking after a confirmation. A checked-in guest keeps the
 * arrival; a day stay keeps its hours on the new day. Whether the berth is free on the new days
 * is the database's answer to the change itself.
 */
function DatesSection({
  detail,
  run,
  busy,
}: {
  detail: OrderDetail;
  run: (a: OrderAction, done: string) => Promise<boolean>;
  busy: boolean;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const o = detail.order;
  const dayStay = o.kind === 'day';
  const checkedIn = o.status === 'checked_in';
  const current = { arrival: berlinDay(o.starts_at), departure: dayStay ? '' : berlinDay(o.ends_at) };
  // One schema per language and kind of stay: the resolver and the quote's guard below share it.
  const schema = useMemo(
    () => datesSchema(dayStay, { invalid: t`Bitte ein gültiges Datum eingeben`, order: t`Die Abreise muss nach der Anreise liegen` }),
    [dayStay, t],
  );
  const form = useForm<{ arrival: string; departure: string }>({ resolver: zodResolver(schema), defaultValues: current, mode: 'onChange' });
  const [arrival, departure] = useWatch({ control: form.control, name: ['arrival', 'departure'] });
  const valid = schema.safeParse({ arrival, departure }).success;
  const changed = arrival !== current.arrival || (!dayStay && departure !== current.departure);
  const quote = useQuery({ ...rescheduleQuoteQueryOptions(o.id, arrival, dayStay ? null : departure), enabled: valid && changed });
  const period = dayStay ? formatDay(arrival, locale) : valid ? `${formatDay(arrival, locale)} – ${formatDay(departure, locale)}` : '';
  const price = quote.data ? formatEuro(quote.data.price_cents, locale) : '';
  const oldPrice = formatEuro(o.price_cents, locale);
  return (
    <Section title={t`Zeitraum ändern`} aria-label={t`Zeitraum ändern`}>
      <Form {...form}>
        <form noValidate aria-label={t`Zeitraum ändern`} className="flex flex-col gap-3" onSubmit={(e) => e.preventDefault()}>
          <div className="flex flex-wrap items-start gap-3">
            <FormField
              control={form.control}
              name="arrival"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{dayStay ? <Trans>Tag</Trans> : <Trans>Anreise</Trans>}</FormLabel>
                  <FormControl>
                    <DatePicker className="w-44" disabled={checkedIn} min={checkedIn ? undefined : berlinToday()} {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            {!dayStay && (
              <FormField
                control={form.control}
                name="departure"
                render={({ field }) => (
                  <FormItem>
                    <FormLabel>
                      <Trans>Abreise</Trans>
                    </FormLabel>
                    <FormControl>
                      <DatePicker className="w-44" min={berlinToday()} {...field} />
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            )}
          </div>
          {checkedIn && (
            <p className="text-sm text-slate-700">
              <Trans>Der Gast ist angereist: nur die Abreise lässt sich ändern.</Trans>
            </p>
          )}
          <div aria-live="polite" className="text-sm" data-reschedule-quote>
            {!valid || !changed ? null : quote.isPending ? (
              <p>
                <Trans>Preis wird berechnet…</Trans>
              </p>
            ) : quote.isError ? (
              <FormAlert>{staffErrorMessage(quote.error)}</FormAlert>
            ) : (
              <p>
                <Trans>
                  Neuer Preis: <span data-price>{price}</span> (bisher {oldPrice})
                </Trans>
                {!dayStay && (
                  <>
                    {' · '}
                    <Plural value={quote.data.nights} one="# Nacht" other="# Nächte" />
                  </>
                )}
              </p>
            )}
          </div>
          <div>
            <ConfirmButton
              label={t`Zeitraum ändern`}
              variant="outline"
              disabled={!valid || !changed || !quote.data || busy}
              title={t`Buchung verschieben?`}
              description={
                <Trans>
                  Die Buchung wird auf {period} verschoben, Liegeplatz {o.place_snapshot.name}; neuer Preis {price} (bisher {oldPrice}).
                  Eine ausgestellte Rechnung wird storniert und neu ausgestellt.
                </Trans>
              }
              confirm={t`Verschieben`}
              notifyEmail={o.email}
              onConfirm={(notify) => {
                void run(
                  { type: 'reschedule', orderId: o.id, placeId: o.place_id, arrival, departure: dayStay ? null : departure, notify },
                  t`Verschoben: ${period}.`,
                );
              }}
            />
          </div>
        </form>
      </Form>
    </Section>
  );
}

function NotesSection({
  detail,
  run,
  busy,
}: {
  detail: OrderDetail;
  run: (a: OrderAction, done: string) => Promise<boolean>;
  busy: boolean;
}) {
  const { t, i18n } = useLingui();
  const form = useForm<{ body: string }>({ resolver: zodResolver(noteSchema()), defaultValues: { body: '' } });
  return (
    <Section title={t`Notizen des Hafenteams`} aria-label={t`Notizen des Hafenteams`}>
      {detail.notes.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>Noch keine Notizen.</Trans>
        </p>
      ) : (
        <ul className="grid gap-2">
          {detail.notes.map((n) => (
            <li key={n.id} className="rounded-md border border-slate-200 bg-white px-3 py-2">
              <p className="whitespace-pre-wrap">{n.body}</p>
              <p className="text-xs text-slate-600">{formatBerlinDateTime(n.created_at, i18n.locale)}</p>
            </li>
          ))}
        </ul>
      )}
      <Form {...form}>
        <form
          noValidate
          aria-label={t`Notiz hinzufügen`}
          className="flex flex-col gap-2 print:hidden"
          onSubmit={form.handleSubmit(async (v) => {
            if (await run({ type: 'note', orderId: detail.order.id, body: v.body }, t`Notiz gespeichert.`)) form.reset({ body: '' });
          })}
        >
          <FormField
            control={form.control}
            name="body"
            render={({ field }) => (
              <FormItem>
                <FormLabel>
                  <Trans>Neue Notiz (nur für das Hafenteam)</Trans>
                </FormLabel>
                <FormControl>
                  <textarea rows={3} maxLength={2000} className="rounded-md border border-slate-300 bg-white p-2" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <div>
            <Button type="submit" variant="outline" disabled={busy}>
              <Trans>Notiz speichern</Trans>
            </Button>
          </div>
        </form>
      </Form>
    </Section>
  );
}

/** Everything about one booking for the harbour team, with its actions. */
export function OrderDetailPage({ id }: { id: string }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  useCalendarRealtime();
  const statusLabel = useStatusLabel();
  const kindLabel = useKindLabel();
  const paymentLabel = usePaymentShortLabel();
  const methodLabel = usePaymentMethodLabel();
  const detail = useQuery(orderDetailQueryOptions(id));
  const action = useOrderAction();
  const [feedback, setFeedback] = useState<{ ok: boolean; text: string } | null>(null);

  const run = async (a: OrderAction, done: string): Promise<boolean> => {
    setFeedback(null);
    try {
      await action.mutateAsync(a);
      setFeedback({ ok: true, text: done });
      return true;
    } catch (error) {
      setFeedback({ ok: false, text: staffErrorMessage(error) });
      return false;
    }
  };

  if (detail.isPending)
    return (
      <Page title={t`Buchung`}>
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      </Page>
    );
  if (detail.isError)
    return (
      <Page title={t`Buchung`}>
        <FormAlert>{staffErrorMessage(detail.error)}</FormAlert>
      </Page>
    );
  if (!detail.data) {
    return (
      <Page title={t`Buchung nicht gefunden`}>
        <p>
          <Trans>Diese Buchung gibt es nicht.</Trans>
        </p>
        <Link to="/{-$locale}/account/admin/orders" className="text-primary-dark underline">
          <Trans>Zur Liste der Bestellungen</Trans>
        </Link>
      </Page>
    );
  }
  const d = detail.data;
  const o = d.order;
  const name = [o.person.first_name, o.person.last_name].filter(Boolean).join(' ');
  const open = o.status === 'unverified' || o.status === 'confirmed' || o.status === 'checked_in';
  const notOver = new Date(o.ends_at) > new Date();
  const today = berlinToday();
  const canCheckIn = (o.status === 'confirmed' || o.status === 'unverified') && berlinDay(o.starts_at) <= today && notOver;
  const busy = action.isPending;
  // 'arrival/departure' (Berlin dates) of a date change.
  const periodText = (v: string | null) =>
    (v ?? '')
      .split('/')
      .map((day) => (day ? formatDay(day, locale) : ''))
      .join(' – ');
  const eventText = (e: OrderDetail['events'][number]) => {
    switch (e.event) {
      case 'created':
        return t`Angelegt (${statusLabel(e.to_value ?? '')})`;
      case 'status':
        return t`Status: ${statusLabel(e.from_value ?? '')} → ${statusLabel(e.to_value ?? '')}`;
      case 'payment':
        return t`Zahlung: ${paymentLabel(e.from_value ?? '')} → ${paymentLabel(e.to_value ?? '')}`;
      case 'moved':
        return t`Umgelegt: Liegeplatz ${e.from_value ?? ''} → ${e.to_value ?? ''}`;
      case 'rescheduled':
        return t`Verschoben: ${periodText(e.from_value)} → ${periodText(e.to_value)}`;
      case 'payment_recorded':
        return t`Zahlung erfasst: ${formatEuro(Number(e.to_value), locale)} (${methodLabel(e.from_value ?? '')})`;
      case 'refund_recorded':
        return t`Erstattung erfasst: ${formatEuro(Number(e.to_value), locale)} (${methodLabel(e.from_value ?? '')})`;
      case 'payment_to_refund':
        return t`Zahlung erhalten, die zu erstatten ist: ${formatEuro(Number(e.to_value), locale)} (${methodLabel(e.from_value ?? '')})`;
      case 'refund_failed':
        return t`Erstattung fehlgeschlagen, zurückgebucht: ${formatEuro(Number(e.to_value), locale)} (${methodLabel(e.from_value ?? '')})`;
      case 'payment_failed':
        return t`Online-Zahlung abgelehnt (${e.to_value ?? ''})`;
      default:
        return e.event;
    }
  };
  const eventActor = (e: OrderDetail['events'][number]) =>
    e.actor.kind === 'staff' ? (e.actor.name ?? t`Hafenteam`) : e.actor.kind === 'guest' ? t`Gast` : t`System`;
  const person = o.person as Record<string, string | undefined>;
  const address = [person.street, [person.postal_code, person.city].filter(Boolean).join(' '), person.country].filter(Boolean).join(', ');

  return (
    <Page title={t`Buchung ${name}`}>
      <div className="flex flex-wrap items-center gap-3">
        <OrderStatusBadge status={o.status} />
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-medium" data-testid="payment-status">
          {paymentLabel(o.payment_status)}
        </span>
        <span className="text-sm text-slate-700" data-testid="booking-number">
          <Trans>
            Buchungsnummer <span className="font-mono font-semibold tracking-wide">{o.booking_number}</span>
          </Trans>
        </span>
        <Link to="/{-$locale}/account/admin/orders" className="text-sm text-primary-dark underline underline-offset-4">
          <Trans>Zur Liste</Trans>
        </Link>
      </div>

      {feedback && (
        <p
          role={feedback.ok ? 'status' : 'alert'}
          className={feedback.ok ? 'rounded-md bg-green-50 p-3 text-green-950' : 'rounded-md bg-red-50 p-3 text-red-900'}
        >
          {feedback.text}
        </p>
      )}

      <Section title={t`Aktionen`} aria-label={t`Aktionen`}>
        <div className="flex flex-wrap gap-3">
          {canCheckIn && (
            <Button variant="outline" disabled={busy} onClick={() => void run({ type: 'check-in', orderId: o.id }, t`Eingecheckt.`)}>
              <Trans>Einchecken</Trans>
            </Button>
          )}
          {open && (
            <ConfirmButton
              label={t`Stornieren`}
              variant="destructive"
              disabled={busy}
              title={t`Buchung stornieren?`}
              description={
                <Trans>
                  Die Buchung wird storniert und Liegeplatz {o.place_snapshot.name} für diesen Zeitraum wieder freigegeben. Das lässt sich
                  nicht rückgängig machen.
                </Trans>
              }
              confirm={t`Stornieren`}
              notifyEmail={o.email}
              onConfirm={(notify) => void run({ type: 'cancel', orderId: o.id, notify }, t`Storniert; der Liegeplatz ist wieder frei.`)}
            />
          )}
          {d.invoice && (
            <Link
              to="/{-$locale}/account/admin/orders/$id/invoice"
              params={{ id: o.id }}
              className={buttonVariants({ variant: 'outline' })}
            >
              <Trans>Rechnung drucken</Trans>
            </Link>
          )}
        </div>
      </Section>

      <div className="grid gap-6 md:grid-cols-2">
        <Section title={t`Gast`} aria-label={t`Gast`}>
          <FactList
            items={[
              { label: t`Name`, value: name || '–' },
              { label: t`E-Mail`, value: o.email || '–' },
              { label: t`Telefon`, value: person.phone ?? '–' },
              ...(person.company ? [{ label: t`Firma`, value: person.company }] : []),
              { label: t`Adresse`, value: address || '–' },
              // The guest's actual account (order_guest_account), not merely a user id: a guest books under an anonymous session.
              {
                label: t`Kundenkonto`,
                value:
                  d.account === 'account'
                    ? t`ja`
                    : d.account === 'code'
                      ? t`nein (E-Mail per Code bestätigt)`
                      : d.account === 'guest'
                        ? t`nein (Gast, E-Mail unbestätigt)`
                        : t`nein`,
              },
            ]}
          />
        </Section>
        <Section title={t`Boot und Liegeplatz`} aria-label={t`Boot und Liegeplatz`}>
          <FactList
            items={[
              { label: t`Boot`, value: o.boat.name },
              ...(o.boat.tag ? [{ label: t`Kennzeichen`, value: o.boat.tag }] : []),
              {
                label: t`Maße`,
                value: `${Number(o.boat.length).toLocaleString(locale)} × ${Number(o.boat.width).toLocaleString(locale)} m`,
              },
              { label: t`Liegeplatz`, value: <span data-testid="order-place">{o.place_snapshot.name}</span> },
              { label: t`Art`, value: kindLabel(o.kind) },
              { label: t`Anreise`, value: formatBerlinDateTime(o.starts_at, locale) },
              { label: t`Abreise`, value: formatBerlinDateTime(o.ends_at, locale) },
              { label: t`Gebucht am`, value: formatBerlinDateTime(o.created_at, locale) },
              ...(o.checked_in_at ? [{ label: t`Eingecheckt am`, value: formatBerlinDateTime(o.checked_in_at, locale) }] : []),
              ...(o.cancelled_at ? [{ label: t`Storniert am`, value: formatBerlinDateTime(o.cancelled_at, locale) }] : []),
            ]}
          />
        </Section>
      </div>

      <Section title={t`Preis`} aria-label={t`Preis`}>
        <PriceBreakdown quote={o.price_breakdown} />
      </Section>

      <OrderExtrasSection order={o} />

      <Section title={t`Zahlung und Rechnung`} aria-label={t`Zahlung und Rechnung`}>
        <FactList
          items={[
            { label: t`Zahlungsstatus`, value: paymentLabel(o.payment_status) },
            ...(o.payment_status !== 'pending' && (o as { payment_id?: string | null }).payment_id
              ? [{ label: t`Zahlungsreferenz`, value: (o as { payment_id?: string | null }).payment_id }]
              : []),
            {
              label: t`Rechnung`,
              value: d.invoice ? (
                <span data-testid="invoice-number">{d.invoice.invoice_number}</span>
              ) : (
                <NoInvoice documents={d.documents} payment={o.payment_status} status={o.status} />
              ),
            },
            ...(d.invoice ? [{ label: t`Rechnungsdatum`, value: formatBerlinDateTime(d.invoice.issued_at, locale) }] : []),
          ]}
        />
        <h3 className="mt-2 text-lg font-semibold text-slate-900">
          <Trans>Belege</Trans>
        </h3>
        <OrderDocumentsList
          documents={d.documents}
          link={(doc, label) => (
            <Link
              to="/{-$locale}/account/admin/orders/$id/documents/$documentId"
              params={{ id: o.id, documentId: doc.id }}
              className="font-medium text-primary-dark underline underline-offset-4"
            >
              {label}
            </Link>
          )}
        />
      </Section>

      <PaymentsPanel order={o} />

      {open && notOver && <MoveSection detail={d} run={(a, done) => void run(a, done)} busy={busy} />}
      {open && notOver && <DatesSection key={`${o.starts_at}/${o.ends_at}`} detail={d} run={run} busy={busy} />}

      <Section title={t`Verlauf`} aria-label={t`Verlauf`}>
        {d.events.length === 0 ? (
          <p className="text-sm text-slate-600">
            <Trans>Gebucht am {formatBerlinDateTime(o.created_at, locale)}; ältere Buchungen haben keinen Verlauf.</Trans>
          </p>
        ) : (
          <ol className="grid gap-1 text-sm">
            {d.events.map((e) => (
              <li key={e.id} className="flex flex-wrap gap-x-3">
                <span className="text-slate-600">{formatBerlinDateTime(e.at, locale)}</span>
                <span className="font-medium" data-testid="event-actor">
                  {eventActor(e)}
                </span>
                <span>{eventText(e)}</span>
              </li>
            ))}
          </ol>
        )}
      </Section>

      <OrderMails orderId={o.id} />

      <NotesSection detail={d} run={run} busy={busy} />
    </Page>
  );
}

/**
 * What the order's invoice line says when no invoice is in force: the last invoice and the
 * cancellation invoice that cancelled it (and whether the money went back), or why there is none yet.
 */
function NoInvoice({
  documents,
  payment,
  status,
}: {
  documents: OrderDetail['documents'];
  payment: OrderDetail['order']['payment_status'];
  status: OrderDetail['order']['status'];
}) {
  const { t } = useLingui();
  const last = [...documents].reverse().find((doc) => doc.kind === 'invoice');
  const cancellation = last && documents.find((doc) => doc.kind === 'cancellation' && doc.refers_to === last.id);
  let text: string;
  if (last && cancellation) {
    const invoice = last.invoice_number;
    const by = cancellation.invoice_number;
    text =
      payment === 'refunded'
        ? t`${invoice} storniert durch Stornorechnung ${by}; der Betrag wurde erstattet`
        : t`${invoice} storniert durch Stornorechnung ${by}`;
  } else if (status === 'cancelled' || status === 'expired') {
    text = t`keine (nichts bezahlt)`;
  } else {
    text = t`noch keine (entsteht bei Zahlung)`;
  }
  return <span data-testid="invoice-state">{text}</span>;
}
