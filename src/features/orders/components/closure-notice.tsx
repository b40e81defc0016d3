import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/form-alert';
import { formatDay } from '@/lib/dates';
import { errorMessage } from '@/lib/errors/guest-messages';
import { closureNoticeQueryOptions, useAnswerClosure } from '@/features/orders/api/closure-notice';
import { CancelOrderDialog } from '@/features/orders/components/cancel-order-dialog';
import type { Order } from '@/features/orders/api/types';

/**
 * The harbour-closure notice on the guest's booking page (issue 43, ADR 0053 "Guests in a
 * closure"): the stay's closed days and the three choices of the e-mail: keep, move (the harbour
 * office moves the stay), cancel free of charge (cancel_booking with free terms).
 */
export function ClosureNotice({ order, onChanged }: { order: Order; onChanged: () => void }) {
  const { t, i18n } = useLingui();
  const [now] = useState(() => Date.now());
  const notice = useQuery(closureNoticeQueryOptions(order.id));
  const answer = useAnswerClosure();
  if (!notice.data) return null;
  const { id, closed_days, choice } = notice.data;
  const days = new Intl.ListFormat(i18n.locale).format(closed_days.map((d) => formatDay(d, i18n.locale)));
  const open = order.status === 'confirmed' || order.status === 'checked_in';
  const cancellable = order.status === 'confirmed' && now < new Date(order.starts_at).getTime();
  const answers = [
    { value: 'keep', label: t`Buchung behalten` },
    { value: 'move', label: t`Verschieben lassen` },
  ] as const;
  return (
    <section
      aria-label={t`Hafen geschlossen`}
      data-testid="closure-notice"
      className="flex flex-col gap-3 rounded-md border border-red-300 bg-red-50 p-4 text-red-950"
    >
      <h2 className="text-lg font-semibold">
        <Trans>Hafen wegen Hochwasser geschlossen</Trans>
      </h2>
      <p>
        <Trans>
          Der Rhein am Pegel Düsseldorf steigt voraussichtlich über die Hochwassermarke II: Die Schifffahrt ist eingestellt, der Hafen ist
          geschlossen am {days}. Ihr Aufenthalt fällt auf diese Tage.
        </Trans>
      </p>
      {open && (
        <p>
          <Trans>
            Sie können die Buchung behalten, sie verschieben lassen oder kostenlos stornieren, unabhängig von den Stornobedingungen.
          </Trans>
        </p>
      )}
      <p role="status" className="font-semibold" data-testid="closure-choice">
        {choice === 'keep' ? (
          <Trans>Sie behalten die Buchung. Fällt das Wasser rechtzeitig, ändert sich nichts.</Trans>
        ) : choice === 'move' ? (
          <Trans>Sie möchten den Aufenthalt verschieben: Das Hafenbüro meldet sich bei Ihnen mit neuen Tagen.</Trans>
        ) : choice === 'cancel' ? (
          <Trans>Die Buchung ist storniert.</Trans>
        ) : null}
      </p>
      {open && (
        <div className="flex flex-wrap gap-3">
          {answers.map(({ value, label }) => (
            <Button
              key={value}
              variant={choice === value ? 'default' : 'outline'}
              aria-pressed={choice === value}
              disabled={answer.isPending}
              onClick={() => answer.mutate({ noticeId: id, choice: value })}
            >
              {label}
            </Button>
          ))}
          {cancellable && <CancelOrderDialog orderId={order.id} onChanged={onChanged} label={t`Kostenlos stornieren`} />}
        </div>
      )}
      {answer.isError && <FormAlert className="text-sm">{errorMessage(answer.error)}</FormAlert>}
    </section>
  );
}
