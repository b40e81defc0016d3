import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { FormAlert } from '@/components/form-alert';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { berlinDay, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { errorMessage } from '@/lib/errors/guest-messages';
import {
  myContractsQueryOptions,
  myOffersQueryOptions,
  offerContractQueryOptions,
  useAcceptOffer,
  useDeclineOffer,
  type MyContract,
  type MyOffer,
  type PaymentMethod,
  type PaymentPlan,
} from '@/features/account/api/offers';
import { ContractNotice } from '@/features/account/components/contract-notice';
import { ContractPdfButton } from '@/features/account/components/contract-pdf';
import { acceptOfferSchema, type AcceptOfferValues } from '@/features/account/schemas/offer';
import { SetUpDirectDebit } from '@/features/account/long-term-fees/components';

const selectClass = 'h-9 rounded-md border border-slate-300 bg-white px-2';

/**
 * The applicant's offers (a berth for a season, from the waiting list) with the full contract
 * text, accepted online or declined, and the contracts accepted (issue 42, ADR 0047).
 */
export function OffersAndContracts() {
  const { t } = useLingui();
  const offers = useQuery(myOffersQueryOptions());
  const contracts = useQuery(myContractsQueryOptions());
  if (offers.isError || contracts.isError) return <FormAlert>{errorMessage(offers.error ?? contracts.error)}</FormAlert>;
  const open = offers.data ?? [];
  const signed = contracts.data ?? [];
  if (open.length === 0 && signed.length === 0) return null;
  return (
    <>
      {open.length > 0 && (
        <section aria-label={t`Angebote`} className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold">
            <Trans>Angebote für einen Langzeitliegeplatz</Trans>
          </h2>
          {open.map((o) => (
            <OfferCard key={o.id} offer={o} />
          ))}
        </section>
      )}
      {signed.length > 0 && (
        <section aria-label={t`Meine Verträge`} className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold">
            <Trans>Meine Verträge</Trans>
          </h2>
          {signed.map((c) => (
            <ContractCard key={c.id} contract={c} />
          ))}
        </section>
      )}
    </>
  );
}

function OfferCard({ offer }: { offer: MyOffer }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const form = useForm<AcceptOfferValues>({
    resolver: zodResolver(acceptOfferSchema),
    defaultValues: { plan: '1', method: 'bank_transfer', agree: false },
  });
  const plan = Number(useWatch({ control: form.control, name: 'plan' })) as PaymentPlan;
  const method = useWatch({ control: form.control, name: 'method' }) as PaymentMethod;
  const text = useQuery({ ...offerContractQueryOptions(offer.id, plan, method), enabled: offer.status === 'open' });
  const accept = useAcceptOffer();
  const decline = useDeclineOffer();
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const berth = offer.place?.name ?? '–';
  const season = offer.season?.name ?? '–';
  const submit = form.handleSubmit(() => {
    if (!text.data) return;
    accept.mutate({ offerId: offer.id, plan, method, text: text.data.contract_text });
  });
  return (
    <article className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-offer={offer.id}>
      <h3 className="font-semibold">
        <Trans>
          Liegeplatz {berth}, {season}
        </Trans>
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          <Trans>Saison</Trans>
        </dt>
        <dd>{offer.season ? `${formatDay(offer.season.starts_on, locale)} – ${formatDay(offer.season.ends_on, locale)}` : '–'}</dd>
        <dt className="text-muted-foreground">
          <Trans>Preis für die Saison</Trans>
        </dt>
        <dd>
          {formatEuro(Number(offer.gross_cents), locale)} <Trans>(inkl. MwSt.)</Trans>
        </dd>
        <dt className="text-muted-foreground">
          <Trans>Antwort bis</Trans>
        </dt>
        <dd>{formatDay(offer.deadline, locale)}</dd>
      </dl>
      {offer.status !== 'open' ? (
        <FormAlert>
          <Trans>Die Frist für dieses Angebot ist abgelaufen. Bitte wenden Sie sich an das Hafenbüro.</Trans>
        </FormAlert>
      ) : (
        <Form {...form}>
          <form noValidate onSubmit={(e) => void submit(e)} aria-label={t`Angebot annehmen`} className="flex flex-col gap-3">
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField
                control={form.control}
                name="plan"
                render={({ field }) => (
                  <FormItem className="gap-1">
                    <FormLabel>
                      <Trans>Zahlung</Trans>
                    </FormLabel>
                    <FormControl>
                      <select className={selectClass} {...field}>
                        <option value="1">{t`in einer Zahlung`}</option>
                        <option value="2">{t`in 2 Raten`}</option>
                        <option value="4">{t`in 4 Raten`}</option>
                      </select>
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
              <FormField
                control={form.control}
                name="method"
                render={({ field }) => (
                  <FormItem className="gap-1">
                    <FormLabel>
                      <Trans>Zahlungsart</Trans>
                    </FormLabel>
                    <FormControl>
                      <select className={selectClass} {...field}>
                        <option value="bank_transfer">{t`Überweisung`}</option>
                        <option value="sepa_debit">{t`SEPA-Lastschrift`}</option>
                      </select>
                    </FormControl>
                    <FormMessage />
                  </FormItem>
                )}
              />
            </div>
            <div>
              <h4 className="mb-1 text-sm font-semibold">
                <Trans>Vertragstext</Trans>
                {text.data && (
                  <span className="ml-2 font-normal text-muted-foreground">
                    <Trans>
                      (Vertragsbedingungen Fassung {text.data.terms_version} vom{' '}
                      {formatDay(berlinDay(text.data.terms_published_at), locale)})
                    </Trans>
                  </span>
                )}
              </h4>
              {text.isError ? (
                <FormAlert>{errorMessage(text.error)}</FormAlert>
              ) : (
                <pre
                  data-testid="contract-text"
                  tabIndex={0}
                  aria-label={t`Vertragstext`}
                  className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm whitespace-pre-wrap"
                >
                  {text.data?.contract_text ?? t`Lädt…`}
                </pre>
              )}
            </div>
            <FormField
              control={form.control}
              name="agree"
              render={({ field }) => (
                <FormItem className="gap-1">
                  <div className="flex items-start gap-2">
                    <FormControl>
                      <Checkbox checked={field.value} onCheckedChange={(v) => field.onChange(v === true)} />
                    </FormControl>
                    <FormLabel className="font-normal">
                      <Trans>Ich habe den Vertragstext gelesen und nehme den Vertrag verbindlich an.</Trans>
                    </FormLabel>
                  </div>
                  <FormMessage />
                </FormItem>
              )}
            />
            {accept.error && <FormAlert>{errorMessage(accept.error)}</FormAlert>}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={accept.isPending || !text.data}>
                {/* § 312j Abs. 3 BGB: the button that concludes a paid contract says so (docs/adr/0047). */}
                <Trans>Zahlungspflichtigen Vertrag schließen</Trans>
              </Button>
              <ConfirmDialog
                open={declining}
                onOpenChange={setDeclining}
                trigger={
                  <Button type="button" variant="outline">
                    <Trans>Angebot ablehnen</Trans>
                  </Button>
                }
                title={<Trans>Angebot ablehnen?</Trans>}
                description={
                  <Trans>
                    Der Liegeplatz {berth} wird dann dem Nächsten auf der Warteliste angeboten. Beim ersten Ablehnen behalten Sie Ihren
                    Platz auf der Warteliste.
                  </Trans>
                }
                confirmLabel={<Trans>Ablehnen</Trans>}
                destructive
                busy={decline.isPending}
                error={decline.error ? errorMessage(decline.error) : undefined}
                onConfirm={() => decline.mutate({ offerId: offer.id, reason }, { onSuccess: () => setDeclining(false) })}
              >
                <label className="flex flex-col gap-1 text-sm">
                  <Trans>Grund (freiwillig)</Trans>
                  <textarea
                    className="rounded-md border border-slate-300 p-2"
                    maxLength={1000}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                  />
                </label>
              </ConfirmDialog>
            </div>
          </form>
        </Form>
      )}
    </article>
  );
}

function ContractCard({ contract }: { contract: MyContract }) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const number = contract.contract_number;
  const berth = contract.place?.name ?? '–';
  const season = contract.season?.name ?? '–';
  const status =
    contract.status === 'active' ? <Trans>aktiv</Trans> : contract.status === 'noticed' ? <Trans>gekündigt</Trans> : <Trans>beendet</Trans>;
  return (
    <article className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4" data-contract={contract.id}>
      <h3 className="font-semibold">
        <Trans>
          Vertrag {number}: Liegeplatz {berth}, {season}
        </Trans>
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          <Trans>Status</Trans>
        </dt>
        <dd>{status}</dd>
        <dt className="text-muted-foreground">
          <Trans>Angenommen am</Trans>
        </dt>
        <dd>{formatBerlinDateTime(contract.accepted_at, locale)}</dd>
        <dt className="text-muted-foreground">
          <Trans>Preis für die Saison</Trans>
        </dt>
        <dd>{formatEuro(Number(contract.gross_cents), locale)}</dd>
        <dt className="text-muted-foreground">
          <Trans>Zahlung</Trans>
        </dt>
        <dd>
          {contract.payment_plan === 1 ? <Trans>in einer Zahlung</Trans> : <Trans>in {contract.payment_plan} Raten</Trans>},{' '}
          {contract.payment_method === 'sepa_debit' ? <Trans>SEPA-Lastschrift</Trans> : <Trans>Überweisung</Trans>}
        </dd>
        <dt className="text-muted-foreground">
          <Trans>Kündigung bis</Trans>
        </dt>
        <dd>{formatDay(contract.notice_deadline, locale)}</dd>
      </dl>
      {/* Paid by direct debit: the mandate is the acceptance's last step (Stripe's page), then it shows here. */}
      {contract.payment_method === 'sepa_debit' && contract.status !== 'ended' && <SetUpDirectDebit contractId={contract.id} />}
      <ContractNotice contract={contract} />
      <ContractPdfButton contract={contract} />
      <details>
        <summary className="cursor-pointer text-sm">
          <Trans>Vertragstext, wie angenommen</Trans>
        </summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm whitespace-pre-wrap">
          {contract.contract_text}
        </pre>
        <p className="mt-1 text-xs break-all text-muted-foreground">SHA-256 {contract.contract_sha256}</p>
      </details>
    </article>
  );
}
