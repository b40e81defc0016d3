import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { usePaymentMethodLabel, invoiceDocumentQueryOptions, InvoiceDocumentView, useInvoiceKindLabel } from '@/features/orders';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formatBerlinDateTime } from '@/lib/dates';
import { formatEuro, parseEuroCents } from '@/lib/prices';
import {
  deskReceiptsQueryOptions,
  deskSaleStateQueryOptions,
  extrasCatalogueQueryOptions,
  useCancelDeskSale,
  useSellAtDesk,
  deskQuantity,
  deskSaleSchema,
  type DeskSaleInput,
  type DeskSaleValues,
  useExtraName,
  useExtraUnitLabel,
} from '@/features/harbour/extras';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

/**
 * /account/admin/desk-sale: extras sold over the counter without a booking (ice, washing
 * machine, boat lift). Staff type the quantities and the payment method; the database issues the
 * receipt (a Kleinbetragsrechnung up to 250 €, above it with the buyer) and books cash into the
 * cash book; the page then opens the stored receipt to print. Deposits go onto a booking.
 */
export function DeskSalePage() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const nameOf = useExtraName();
  const unitLabel = useExtraUnitLabel();
  const methodLabel = usePaymentMethodLabel();
  const kindLabel = useInvoiceKindLabel();
  const navigate = useNavigate();
  const catalogue = useQuery(extrasCatalogueQueryOptions());
  const receipts = useQuery(deskReceiptsQueryOptions());
  const entries = (catalogue.data ?? []).filter((e) => e.active && !e.deposit);
  // Pending until the receipt is open (no second sale by a second click meanwhile).
  const selling = useSellAtDesk((doc) =>
    navigate({ to: '/{-$locale}/account/admin/desk-sale/$documentId', params: { documentId: doc.id } }),
  );
  const error = selling.error ? staffErrorMessage(selling.error) : null;
  const form = useForm<DeskSaleInput, unknown, DeskSaleValues>({
    resolver: zodResolver(deskSaleSchema(entries)),
    defaultValues: { quantities: {}, prices: {}, method: 'cash', buyer: { name: '', company: '', street: '', postal_code: '', city: '' } },
  });
  // The fields see the typed values (the schema's output differs: items, cents).
  const control = form.control as unknown as Control<DeskSaleInput>;
  const quantities = useWatch({ control: form.control, name: 'quantities' });
  const prices = useWatch({ control: form.control, name: 'prices' });
  // The running total as typed (the database computes the receipt's own).
  const total = entries.reduce((sum, e) => {
    const q = deskQuantity(quantities?.[e.id] ?? '') ?? 0;
    const typed = e.price_from ? parseEuroCents(prices?.[e.id] ?? '', 5) : null;
    return sum + q * (typed !== null && typed >= e.price_cents ? typed : e.price_cents);
  }, 0);
  const needsBuyer = total > 25_000;

  const onSubmit = form.handleSubmit((v) => selling.mutate({ items: v.items, method: v.method, buyer: v.buyer }));

  return (
    <Page
      title={t`Verkauf am Hafenbüro`}
      lead={t`Extras ohne Buchung verkaufen, z. B. Eis oder Waschmaschine. Der Beleg wird sofort ausgestellt; Barverkäufe stehen im Kassenbuch.`}
    >
      {catalogue.isError ? (
        <FormAlert>{staffErrorMessage(catalogue.error)}</FormAlert>
      ) : catalogue.isPending ? (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <Form {...form}>
          <form noValidate onSubmit={onSubmit} aria-label={t`Verkauf`} className="grid gap-6">
            <Section title={t`Extras`}>
              <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
                {entries.map((e) => (
                  <li
                    key={e.id}
                    className="grid grid-cols-[minmax(0,1fr)_5.5rem] items-start gap-x-4 gap-y-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_9rem_5.5rem]"
                    data-testid="desk-item"
                  >
                    {/* Placed explicitly: the fields below have a definite row, and CSS grid places
                        those before auto-placed items (the price field went left of its item). */}
                    <div className="col-start-1 row-start-1 flex min-w-0 flex-col">
                      <span className="font-medium text-slate-900">{nameOf(e)}</span>
                      <span className="text-sm text-slate-600">
                        {e.price_from ? t`ab ${formatEuro(e.price_cents, locale)}` : formatEuro(e.price_cents, locale)} /{' '}
                        {unitLabel(e.unit)} · {t`inkl. ${e.vat_rate} % USt.`}
                      </span>
                    </div>
                    {e.price_from ? (
                      <FormField
                        control={control}
                        name={`prices.${e.id}`}
                        render={({ field }) => (
                          <FormItem className="col-span-2 col-start-1 row-start-2 sm:col-span-1 sm:col-start-2 sm:row-start-1">
                            {/* The label above its field (a person sees "Preis (€)", a screen reader the item too). */}
                            <FormLabel className="text-sm text-slate-700">
                              <span aria-hidden>
                                <Trans>Preis (€)</Trans>
                              </span>
                              <span className="sr-only">
                                <Trans>
                                  Preis je {unitLabel(e.unit)} für {nameOf(e)}
                                </Trans>
                              </span>
                            </FormLabel>
                            <FormControl>
                              <Input
                                inputMode="decimal"
                                autoComplete="off"
                                placeholder={t`ab ${formatEuro(e.price_cents, locale)}`}
                                {...field}
                                value={field.value ?? ''}
                              />
                            </FormControl>
                            <FormMessage />
                          </FormItem>
                        )}
                      />
                    ) : (
                      <span className="hidden sm:block" />
                    )}
                    <FormField
                      control={control}
                      name={`quantities.${e.id}`}
                      render={({ field }) => (
                        <FormItem className="col-start-2 row-start-1 sm:col-start-3">
                          <span aria-hidden className="text-sm font-medium text-slate-700">
                            <Trans>Menge</Trans>
                          </span>
                          <FormControl>
                            <Input
                              inputMode="numeric"
                              autoComplete="off"
                              placeholder="0"
                              aria-label={t`Menge ${nameOf(e)}`}
                              {...field}
                              value={field.value ?? ''}
                              onChange={(ev) => {
                                field.onChange(ev);
                                form.clearErrors('method');
                              }}
                            />
                          </FormControl>
                          <FormMessage />
                        </FormItem>
                      )}
                    />
                  </li>
                ))}
              </ul>
              <p className="text-sm text-slate-600">
                <Trans>Pfand (Kühlbox, Parkschranken-Schlüssel) gehört an eine Buchung: dort wird auch die Rückgabe erfasst.</Trans>
              </p>
            </Section>

            <Section title={t`Bezahlung`}>
              <p className="text-lg" aria-live="polite">
                <Trans>
                  Summe: <strong data-testid="desk-total">{formatEuro(total, locale)}</strong>
                </Trans>
              </p>
              <FormField
                control={control}
                name="method"
                render={({ field }) => (
                  <FormItem>
                    <p className="text-sm font-medium">
                      <Trans>Zahlungsart</Trans>
                    </p>
                    <RadioGroup
                      value={field.value}
                      onValueChange={field.onChange}
                      aria-label={t`Zahlungsart`}
                      className="flex flex-wrap gap-2"
                    >
                      {(['cash', 'card_terminal', 'bank_transfer'] as const).map((m) => (
                        <Label
                          key={m}
                          className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 has-[[data-state=checked]]:border-primary-dark has-[[data-state=checked]]:bg-sky-50"
                        >
                          <RadioGroupItem value={m} />
                          {methodLabel(m)}
                        </Label>
                      ))}
                    </RadioGroup>
                    <FormMessage />
                  </FormItem>
                )}
              />
              {needsBuyer && (
                <fieldset className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2">
                  <legend className="px-1 text-sm font-medium">
                    <Trans>Käufer (über 250 € Pflicht auf dem Beleg)</Trans>
                  </legend>
                  {(
                    [
                      ['name', t`Name`],
                      ['company', t`Firma (optional)`],
                      ['street', t`Straße und Hausnummer`],
                      ['postal_code', t`PLZ`],
                      ['city', t`Ort`],
                    ] as const
                  ).map(([key, label]) => (
                    <FormField
                      key={key}
                      control={control}
                      name={`buyer.${key}`}
                      render={({ field }) => (
                        <FormItem>
                          <FormLabel>{label}</FormLabel>
                          <FormControl>
                            <Input autoComplete="off" {...field} />
                          </FormControl>
                          <FormMessage />
                        </FormItem>
                      )}
                    />
                  ))}
                </fieldset>
              )}
              {error && <FormAlert>{error}</FormAlert>}
              <div>
                <Button type="submit" disabled={selling.isPending}>
                  <Trans>Verkaufen und Beleg ausstellen</Trans>
                </Button>
              </div>
            </Section>
          </form>
        </Form>
      )}

      <Section title={t`Letzte Belege`}>
        {receipts.isError ? (
          <FormAlert>{staffErrorMessage(receipts.error)}</FormAlert>
        ) : (receipts.data ?? []).length === 0 ? (
          <p className="text-sm text-slate-600">
            <Trans>Noch keine Verkäufe am Hafenbüro.</Trans>
          </p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label={t`Letzte Belege`}>
            {(receipts.data ?? []).map((r) => (
              <li
                key={r.id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 px-4 py-2"
                data-testid="desk-receipt"
                data-kind={r.kind}
              >
                <span className="flex flex-col">
                  <Link
                    to="/{-$locale}/account/admin/desk-sale/$documentId"
                    params={{ documentId: r.id }}
                    className="font-medium text-primary-dark underline underline-offset-4"
                  >
                    {r.kind === 'cancellation' ? `${kindLabel(r.kind)} ${r.invoice_number}` : r.invoice_number}
                  </Link>
                  <span className="text-sm text-slate-600">{formatBerlinDateTime(r.issued_at, locale)}</span>
                </span>
                <span className="font-semibold tabular-nums">{formatEuro(r.gross_cents, locale)}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </Page>
  );
}

/** /account/admin/desk-sale/{documentId}: the stored receipt or its Stornorechnung, ready to print (never live data). */
export function DeskReceiptPage({ id }: { id: string }) {
  const { t } = useLingui();
  const kindLabel = useInvoiceKindLabel();
  const doc = useQuery(invoiceDocumentQueryOptions(id));
  const back = (
    <Link to="/{-$locale}/account/admin/desk-sale" className="self-center text-primary-dark underline underline-offset-4">
      <Trans>Neuer Verkauf</Trans>
    </Link>
  );
  if (doc.isPending)
    return (
      <Page title={t`Beleg`}>
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      </Page>
    );
  if (doc.isError)
    return (
      <Page title={t`Beleg`}>
        <FormAlert>{staffErrorMessage(doc.error)}</FormAlert>
      </Page>
    );
  const d = doc.data;
  if (!d || !d.desk_sale_id) {
    return (
      <Page title={t`Beleg nicht gefunden`}>
        <p role="alert">
          <Trans>Diesen Beleg eines Verkaufs am Hafenbüro gibt es nicht.</Trans>
        </p>
        {back}
      </Page>
    );
  }
  const title = d.kind === 'invoice' ? t`Beleg ${d.invoice_number}` : `${kindLabel(d.kind)} ${d.invoice_number}`;
  return (
    <InvoiceDocumentView
      doc={d}
      title={title}
      back={
        <>
          {back}
          <DeskSaleCancel receiptId={d.kind === 'invoice' ? d.id : null} deskSaleId={d.desk_sale_id} />
        </>
      }
    />
  );
}

/**
 * The receipt's cancellation: staff cancel a desk sale once (wrong item, the guest brings it
 * back) after confirming with a reason; the database issues the Stornorechnung and pays the money
 * back the way it was paid (cash out of the till, card terminal or transfer beside the cash book).
 * A cancelled sale names its Stornorechnung; the Stornorechnung links back to the receipt.
 */
function DeskSaleCancel({ receiptId, deskSaleId }: { receiptId: string | null; deskSaleId: string }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const methodLabel = usePaymentMethodLabel();
  const navigate = useNavigate();
  const state = useQuery(deskSaleStateQueryOptions(deskSaleId));
  const receipts = useQuery(deskReceiptsQueryOptions());
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  // The dialog's own check (a reason) before anything is written; the database's refusal is the mutation's.
  const [reasonMissing, setReasonMissing] = useState(false);
  const cancelling = useCancelDeskSale(async (storno) => {
    setOpen(false);
    await navigate({ to: '/{-$locale}/account/admin/desk-sale/$documentId', params: { documentId: storno.id } });
  });
  const error = reasonMissing
    ? t`Bitte einen Grund für die Stornierung angeben.`
    : cancelling.error
      ? staffErrorMessage(cancelling.error)
      : null;
  if (!state.data) return null;
  const { cancellation, method, gross_cents: gross } = state.data;
  if (receiptId === null) {
    const receipt = (receipts.data ?? []).find((r) => r.desk_sale_id === deskSaleId && r.kind === 'invoice');
    return receipt ? (
      <Link
        to="/{-$locale}/account/admin/desk-sale/$documentId"
        params={{ documentId: receipt.id }}
        className="self-center text-primary-dark underline underline-offset-4"
      >
        <Trans>Zum Beleg {receipt.invoice_number}</Trans>
      </Link>
    ) : null;
  }
  if (cancellation) {
    return (
      <p className="basis-full text-sm text-slate-800" data-testid="desk-sale-cancelled">
        <Trans>
          Storniert am {formatBerlinDateTime(cancellation.cancelled_at, locale)} ({cancellation.reason});{' '}
          {formatEuro(cancellation.amount_cents, locale)} zurück: {methodLabel(cancellation.method)}.
        </Trans>{' '}
        <Link
          to="/{-$locale}/account/admin/desk-sale/$documentId"
          params={{ documentId: cancellation.document_id }}
          className="font-medium text-primary-dark underline underline-offset-4"
        >
          <Trans>Stornorechnung {cancellation.document_number}</Trans>
        </Link>
      </p>
    );
  }
  const how =
    method === 'cash'
      ? t`bar aus der Kasse (Erstattung im Kassenbuch, am heute offenen Kassentag)`
      : method === 'card_terminal'
        ? t`auf die Karte am Kartenterminal (neben dem Kassenbuch aufgeführt)`
        : t`per Überweisung (neben dem Kassenbuch aufgeführt)`;
  const submit = () => {
    cancelling.reset();
    if (!reason.trim()) return setReasonMissing(true);
    setReasonMissing(false);
    cancelling.mutate({ receiptId, reason });
  };
  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          setReasonMissing(false);
          cancelling.reset();
          setOpen(true);
        }}
      >
        <Trans>Verkauf stornieren</Trans>
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        busy={cancelling.isPending}
        title={<Trans>Verkauf stornieren?</Trans>}
        description={
          <Trans>
            Der Beleg bleibt unverändert; eine Stornorechnung mit eigener Nummer hebt ihn auf. {formatEuro(gross, locale)} gehen zurück:{' '}
            {how}. Ein Verkauf wird nur einmal storniert.
          </Trans>
        }
        confirmLabel={<Trans>Stornorechnung ausstellen</Trans>}
        destructive
        onConfirm={submit}
      >
        <div className="grid gap-2">
          <Label htmlFor="desk-cancel-reason">
            <Trans>Grund</Trans>
          </Label>
          <Input
            id="desk-cancel-reason"
            value={reason}
            maxLength={500}
            autoComplete="off"
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? 'desk-cancel-error' : undefined}
            placeholder={t`z. B. falscher Artikel, Ware zurückgegeben`}
          />
          {error && (
            <FormAlert id="desk-cancel-error" className="text-sm">
              {error}
            </FormAlert>
          )}
        </div>
      </ConfirmDialog>
    </>
  );
}
