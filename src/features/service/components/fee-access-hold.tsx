import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { AlertTriangle } from 'lucide-react';
import { FactList, Prose, Section } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { harbour } from '@/lib/harbour';
import { useHarbourFacts } from '@/components/harbour-facts';
import type { FeeAccessHold } from '@/features/service/api/fee-access-hold';

/**
 * The door-code and wifi pages of a long-term holder with an overdue fee (docs/adr/0051): past
 * the grace period why the codes are not shown and what to do (pay the open amount), within it
 * from which day they will be withheld. The rule itself is the database's (harbour_access()).
 */
export function FeeAccessHoldNotice({ hold }: { hold: FeeAccessHold }) {
  const { t, i18n } = useLingui();
  const phone = useHarbourFacts()?.phone ?? harbour.phone;
  const locale = i18n.locale;
  const open = formatEuro(hold.open_cents, locale);
  const from = formatDay(hold.withheld_from, locale);
  const days = hold.grace_days;
  const iban = hold.iban;
  const items = hold.fees.map((fee) => {
    const number = fee.invoice_number ?? fee.reference;
    const due = formatDay(fee.due_on, locale);
    const overdue = fee.days_overdue;
    return {
      label: t`Rechnung ${number}`,
      value: (
        <span>
          {formatEuro(fee.balance_cents, locale)} ·{' '}
          <Trans>
            fällig am {due}, seit {overdue} Tagen überfällig
          </Trans>
        </span>
      ),
    };
  });
  return (
    <div
      className={
        hold.withheld ? 'rounded-md border border-amber-300 bg-amber-50 p-4' : 'rounded-md border border-slate-200 bg-slate-50 p-4'
      }
      data-testid="fee-access-hold"
      role={hold.withheld ? 'alert' : 'status'}
    >
      <Section
        title={
          <span className="flex items-center gap-2">
            <AlertTriangle className="size-5 text-amber-700" aria-hidden />
            {hold.withheld ? t`Türcode und WLAN sind gesperrt` : t`Eine Liegeplatzgebühr ist überfällig`}
          </span>
        }
      >
        <Prose>
          {hold.withheld ? (
            <p>
              <Trans>
                Eine Liegeplatzgebühr ist seit mehr als {days} Tagen überfällig. Deshalb zeigen wir Türcode und WLAN-Zugangsdaten erst
                wieder an, wenn der offene Betrag von {open} bei uns eingegangen ist.
              </Trans>
            </p>
          ) : (
            <p>
              <Trans>
                Bitte zahlen Sie den offenen Betrag von {open}. Ist er bis zum {from} nicht eingegangen, zeigen wir Türcode und
                WLAN-Zugangsdaten erst nach Zahlungseingang wieder an.
              </Trans>
            </p>
          )}
          <p>
            <Trans>
              Überweisen Sie den Betrag bitte auf IBAN <span className="font-mono">{iban}</span> und geben Sie die Rechnungsnummer als
              Verwendungszweck an. Eine Überweisung braucht meist einen Bankarbeitstag; danach sehen Sie die Codes hier wieder.
            </Trans>
          </p>
        </Prose>
        <FactList items={items} />
        <Prose>
          <p>
            <Trans>Haben Sie schon gezahlt oder brauchen Sie heute Zugang? Rufen Sie das Hafenbüro an: {phone}.</Trans>
          </p>
        </Prose>
        <div className="flex flex-wrap gap-2">
          <Link to="/{-$locale}/account/long-time-place/{-$id}" params={{ id: undefined }} className={buttonVariants()}>
            <Trans>Mein Langzeitliegeplatz</Trans>
          </Link>
        </div>
      </Section>
    </div>
  );
}
