import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { formatBerlinDateTime } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { cancellationQuoteQueryOptions, useCancelOrder, type CancellationTerms } from '@/features/orders/api/order-actions';
import { errorMessage } from '@/lib/errors/guest-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * The guest's cancel button and dialog (/order/{id}, /account/bookings/{id}): before confirming,
 * the database's terms (cancellation_quote: the same function cancel_booking applies) say what
 * is kept, what comes back and how: to the card automatically, at the harbour office.
 */
export function CancelOrderDialog({ orderId, onChanged, label }: { orderId: string; onChanged: () => void; label?: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const quote = useQuery({ ...cancellationQuoteQueryOptions(orderId), enabled: open });
  const cancel = useCancelOrder();
  const [cardSent, setCardSent] = useState<boolean | null>(null);
  const terms = quote.data;
  return (
    <>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={<Button variant="outline">{label ?? <Trans>Buchung stornieren</Trans>}</Button>}
        title={<Trans>Buchung stornieren?</Trans>}
        description={<Trans>Der Liegeplatz wird wieder freigegeben. Das lässt sich nicht rückgängig machen.</Trans>}
        cancelLabel={<Trans>Behalten</Trans>}
        confirmLabel={terms && terms.back_cents > 0 ? t`Stornieren und Erstattung veranlassen` : t`Stornieren`}
        confirmDisabled={!terms || cancel.isPending}
        destructive
        onConfirm={() => {
          if (!terms) return;
          setOpen(false);
          cancel.mutate(
            { orderId, backCardCents: terms.back_card_cents },
            {
              onSuccess: (sent) => {
                setCardSent(sent);
                onChanged();
              },
            },
          );
        }}
      >
        <div className="text-sm text-slate-900" data-testid="cancel-terms" aria-live="polite">
          {quote.isPending ? (
            <p>
              <Trans>Die Stornobedingungen werden geladen …</Trans>
            </p>
          ) : quote.isError ? (
            <FormAlert>{errorMessage(quote.error)}</FormAlert>
          ) : terms ? (
            <CancellationTermsText terms={terms} />
          ) : null}
        </div>
      </ConfirmDialog>
      {cardSent === false && (
        <FormAlert className="text-sm">
          <Trans>Die Erstattung auf Ihre Karte konnte gerade nicht veranlasst werden. Das Hafenbüro zahlt Ihnen den Betrag zurück.</Trans>
        </FormAlert>
      )}
      {cancel.isError && <FormAlert className="text-sm">{errorMessage(cancel.error)}</FormAlert>}
    </>
  );
}

/** The terms in plain words: kept share (and why), the amount back and the way back. */
export function CancellationTermsText({ terms }: { terms: CancellationTerms }) {
  const { i18n } = useLingui();
  const euro = (cents: number) => formatEuro(cents, i18n.locale);
  const freeUntil = formatBerlinDateTime(terms.free_until, i18n.locale);
  const percent = terms.fee_percent;
  return (
    <div className="flex flex-col gap-2">
      <p>
        {terms.closure ? (
          <Trans>Der Hafen ist in Ihrem Aufenthalt wegen Hochwasser geschlossen: Sie stornieren kostenlos.</Trans>
        ) : terms.free ? (
          <Trans>Sie stornieren kostenlos (bis {freeUntil} ist die Stornierung frei).</Trans>
        ) : (
          <Trans>
            Die kostenlose Stornierung war bis {freeUntil} möglich; jetzt behält der Hafen {percent} % des Preises.
          </Trans>
        )}
      </p>
      {terms.paid_cents === 0 ? (
        <p>
          <Trans>Sie haben noch nichts bezahlt; es entstehen keine Kosten.</Trans>
        </p>
      ) : (
        <>
          {terms.kept_cents > 0 && (
            <p>
              <Trans>Der Hafen behält {euro(terms.kept_cents)} (Sie erhalten dafür eine Rechnung).</Trans>
            </p>
          )}
          <p className="font-semibold" data-testid="cancel-refund-amount">
            {terms.back_cents > 0 ? <Trans>Sie erhalten {euro(terms.back_cents)} zurück.</Trans> : <Trans>Es wird nichts erstattet.</Trans>}
          </p>
          {terms.back_card_cents > 0 && (
            <p data-testid="cancel-refund-card">
              <Trans>
                {euro(terms.back_card_cents)} gehen automatisch auf die Karte zurück, mit der Sie bezahlt haben (in der Regel innerhalb von
                5 bis 10 Tagen).
              </Trans>
            </p>
          )}
          {terms.back_desk_cents > 0 && (
            <p data-testid="cancel-refund-desk">
              <Trans>{euro(terms.back_desk_cents)} zahlt Ihnen das Hafenbüro zurück (bar oder per Überweisung).</Trans>
            </p>
          )}
        </>
      )}
    </div>
  );
}
