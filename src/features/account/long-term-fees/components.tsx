import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/form-alert';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import {
  myFeesQueryOptions,
  myMandatesQueryOptions,
  useStartSepaSetup,
  type FeeState,
  type FeeStatus,
} from '@/features/account/long-term-fees/api';

/** A fee's state in words (the database derives it: docs/adr/0048-seasonal-fees-and-sepa.md). */
export function FeeStateLabel({ state }: { state: FeeState | null }) {
  switch (state) {
    case 'paid':
      return <Trans>bezahlt</Trans>;
    case 'overpaid':
      return <Trans>überzahlt (Guthaben)</Trans>;
    case 'partially_paid':
      return <Trans>teilweise bezahlt</Trans>;
    case 'processing':
      return <Trans>Lastschrift läuft</Trans>;
    case 'failed':
      return <Trans>Lastschrift fehlgeschlagen</Trans>;
    case 'overdue':
      return <Trans>überfällig</Trans>;
    case 'cancelled':
      return <Trans>storniert (Vertrag beendet)</Trans>;
    default:
      return <Trans>offen</Trans>;
  }
}

/**
 * Seam 5: the "set up direct debit" step for a contract paid by SEPA direct debit (the
 * acceptance page and the account mount it). Opens Stripe's page for the mandate; once Stripe
 * reports it, the mandate shows here and each collection is announced by e-mail.
 */
export function SetUpDirectDebit({ contractId }: { contractId: string }) {
  const { t, i18n } = useLingui();
  const mandates = useQuery(myMandatesQueryOptions());
  const start = useStartSepaSetup();
  const mandate = mandates.data?.find((m) => m.contract_id === contractId && m.status === 'active');
  if (mandate) {
    return (
      <p>
        <Trans>
          SEPA-Lastschriftmandat {mandate.reference} für die IBAN endend auf {mandate.iban_last4}, erteilt am{' '}
          {formatDay(mandate.created_at.slice(0, 10), i18n.locale)}.
        </Trans>
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <p>
        <Trans>
          Ihre Gebühren werden per SEPA-Lastschrift eingezogen. Erteilen Sie dazu das Mandat auf der sicheren Seite unseres
          Zahlungsdienstleisters Stripe; jeden Einzug kündigen wir Ihnen vorher per E-Mail an.
        </Trans>
      </p>
      <Button
        type="button"
        className="self-start"
        disabled={start.isPending}
        onClick={() =>
          start.mutate(contractId, {
            onSuccess: (url) => window.location.assign(url),
          })
        }
      >
        {start.isPending ? t`Einen Moment…` : t`Lastschriftmandat erteilen`}
      </Button>
      {start.isError ? (
        <FormAlert>
          <Trans>Das Lastschriftmandat kann gerade nicht eingerichtet werden. Bitte versuchen Sie es später noch einmal.</Trans>
        </FormAlert>
      ) : null}
    </div>
  );
}

/** The holder's fees: each instalment with its invoice, due day, amount, what is open and its state. */
export function MyFees() {
  const { t, i18n } = useLingui();
  const fees = useQuery(myFeesQueryOptions());
  if (fees.isPending) {
    return (
      <p role="status">
        <Trans>Lädt…</Trans>
      </p>
    );
  }
  if (fees.isError) {
    return (
      <FormAlert>
        <Trans>Das ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.</Trans>
      </FormAlert>
    );
  }
  if (fees.data.length === 0) {
    return (
      <p>
        <Trans>Es liegen keine Liegeplatzgebühren vor.</Trans>
      </p>
    );
  }
  const byContract = new Map<string, FeeStatus[]>();
  for (const fee of fees.data) byContract.set(fee.contract_id ?? '', [...(byContract.get(fee.contract_id ?? '') ?? []), fee]);
  return (
    <div className="flex flex-col gap-6">
      {[...byContract.entries()].map(([contractId, rows]) => (
        <section key={contractId} aria-label={t`Gebühren zum Vertrag ${rows[0].reference ?? ''}`} className="flex flex-col gap-3">
          <h3 className="font-semibold">
            <Trans>Vertrag {rows[0].reference}</Trans>
          </h3>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left">
                  <th scope="col" className="p-2">
                    <Trans>Rechnung</Trans>
                  </th>
                  <th scope="col" className="p-2">
                    <Trans>Rate</Trans>
                  </th>
                  <th scope="col" className="p-2">
                    <Trans>Fällig</Trans>
                  </th>
                  <th scope="col" className="p-2 text-right">
                    <Trans>Betrag</Trans>
                  </th>
                  <th scope="col" className="p-2 text-right">
                    <Trans>Offen</Trans>
                  </th>
                  <th scope="col" className="p-2">
                    <Trans>Stand</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((fee) => (
                  <tr key={fee.id} className="border-t">
                    <td className="p-2">{fee.invoice_number}</td>
                    <td className="p-2">
                      {fee.instalment}/{fee.instalments}
                    </td>
                    <td className="p-2">
                      {fee.due_on ? formatDay(fee.due_on, i18n.locale) : '–'}
                      {/* SEPA with a mandate: the day of the debit, as the pre-notification announced it. */}
                      {fee.collect_on ? (
                        <span className="block text-muted-foreground">
                          <Trans>Einzug am {formatDay(fee.collect_on, i18n.locale)}</Trans>
                        </span>
                      ) : null}
                    </td>
                    <td className="p-2 text-right">{formatEuro(fee.gross_cents ?? 0, i18n.locale)}</td>
                    <td className="p-2 text-right">{formatEuro(Math.max(fee.balance_cents ?? 0, 0), i18n.locale)}</td>
                    <td className="p-2">
                      <FeeStateLabel state={fee.state} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {rows[0].payment_method === 'sepa_debit' && contractId ? <SetUpDirectDebit contractId={contractId} /> : null}
        </section>
      ))}
    </div>
  );
}

/** The account's section with the holder's fees (mounted on /account/long-time-place). */
export function MyFeesSection() {
  const { t } = useLingui();
  return (
    <section aria-label={t`Meine Liegeplatzgebühren`} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">
        <Trans>Meine Liegeplatzgebühren</Trans>
      </h2>
      <MyFees />
    </section>
  );
}
