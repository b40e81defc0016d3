import { useEffect, useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { addDaysIso, berlinDay, formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { rescheduleQuoteQueryOptions, useOrderAction } from '@/features/harbour/orders';
import type { PendingMove } from '@/features/harbour/calendar/components/timeline';
import { staffErrorMessage } from '@/lib/errors/staff-messages';

/** The new dates of a stay shifted by whole days (Berlin days): arrival and departure together, or the departure alone (endDays). */
export function shiftedDates(move: PendingMove) {
  const arrival = addDaysIso(berlinDay(move.entry.starts_at), move.days);
  const departure = move.entry.ends_at ? addDaysIso(berlinDay(move.entry.ends_at), move.endDays ?? move.days) : null;
  return { arrival, departure };
}

/**
 * Confirmation of a bar dragged to other days (and maybe another berth): old and new berth and
 * dates, the new price from reschedule_quote (the database's price for the new dates), the
 * guest e-mail tick; confirming runs reschedule_booking. The database decides: a refusal of the
 * quote or of the change ends the move (the bar snaps back) with the reason.
 */
export function RescheduleDialog({
  move,
  onConfirming,
  onSettled,
}: {
  /** The dragged stay (the page remounts the dialog per move: key). */
  move: (PendingMove & { confirmed: boolean }) | null;
  /** The change was confirmed and is running (the bar stays on its new place until it settles). */
  onConfirming: () => void;
  /** Done: ok with what changed, or refused (or cancelled: null) with the reason. */
  onSettled: (result: { ok: boolean; text: string } | null) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const queryClient = useQueryClient();
  const action = useOrderAction();
  const [notify, setNotify] = useState(true);
  const notifyId = useId();
  const dates = move ? shiftedDates(move) : null;
  const orderId = move?.entry.order_id ?? '';
  const quote = useQuery({
    ...rescheduleQuoteQueryOptions(orderId, dates?.arrival ?? '', dates?.departure ?? null),
    enabled: !!move && !!orderId,
  });
  // Set on confirming: the dialog's closing after the confirm button is not a cancel.
  const confirming = useRef(false);
  const open = !!move && !move.confirmed && !quote.isError;
  // The database refuses the dates themselves (past, too long, a checked-in arrival): no question to ask.
  const refused = !!move && !move.confirmed && quote.isError;
  useEffect(() => {
    if (refused) onSettled({ ok: false, text: t`Nicht verschoben: ${staffErrorMessage(quote.error)}` });
  }, [refused, quote.error, onSettled, t]);

  if (!move || !dates) return null;
  const oldArrival = berlinDay(move.entry.starts_at);
  const oldDeparture = move.entry.ends_at ? berlinDay(move.entry.ends_at) : null;
  const period = (a: string, b: string | null) =>
    b && b !== a ? `${formatDay(a, locale)} – ${formatDay(b, locale)}` : formatDay(a, locale);
  const samePlace = move.toPlace.id === move.entry.place_id;

  const confirm = () => {
    confirming.current = true;
    onConfirming();
    const target = move;
    action.mutate(
      { type: 'reschedule', orderId, placeId: target.toPlace.id, arrival: dates.arrival, departure: dates.departure, notify },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: harbourKeys.calendars() });
          onSettled({ ok: true, text: t`Verschoben: Liegeplatz ${target.toPlace.name}, ${period(dates.arrival, dates.departure)}.` });
        },
        onError: (e) => onSettled({ ok: false, text: t`Nicht verschoben: ${staffErrorMessage(e)}` }),
      },
    );
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (!o && !confirming.current) onSettled(null);
      }}
      title={<Trans>Buchung verschieben?</Trans>}
      description={
        <Trans>
          {move.entry.guest ?? ''} ({move.entry.boat_name ?? ''}): neue Tage, neuer Preis wie bei einer neuen Buchung.
        </Trans>
      }
      confirmLabel={<Trans>Verschieben</Trans>}
      confirmDisabled={!quote.data}
      onConfirm={confirm}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium">
          <Trans>Bisher</Trans>
        </dt>
        <dd data-old>
          <Trans>
            Liegeplatz {move.entry.place_name}, {period(oldArrival, oldDeparture)}
          </Trans>
          {quote.data && <>, {formatEuro(quote.data.old_price_cents, locale)}</>}
        </dd>
        <dt className="font-medium">
          <Trans>Neu</Trans>
        </dt>
        <dd data-new>
          {samePlace ? (
            <Trans>
              Liegeplatz {move.toPlace.name}, {period(dates.arrival, dates.departure)}
            </Trans>
          ) : (
            <Trans>
              Liegeplatz {move.toPlace.name} (umgelegt), {period(dates.arrival, dates.departure)}
            </Trans>
          )}
          {', '}
          {quote.data ? (
            <span data-price>{formatEuro(quote.data.price_cents, locale)}</span>
          ) : (
            <span aria-busy="true">
              <Trans>Preis wird berechnet…</Trans>
            </span>
          )}
        </dd>
      </dl>
      <p className="text-sm text-slate-600">
        <Trans>
          Eine ausgestellte Rechnung wird storniert und neu ausgestellt; was zu zahlen oder zu erstatten ist, zeigt die Buchung.
        </Trans>
      </p>
      <div className="flex items-start gap-2">
        <Checkbox id={notifyId} checked={notify} onCheckedChange={(v) => setNotify(v === true)} className="mt-0.5" />
        <Label htmlFor={notifyId} className="font-normal leading-snug">
          <Trans>Gast per E-Mail informieren (wenn eine Adresse hinterlegt ist)</Trans>
        </Label>
      </div>
    </ConfirmDialog>
  );
}
