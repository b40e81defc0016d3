import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { KeyRound, Wifi } from 'lucide-react';
import { FactList, Page, Prose, Section } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { identityQueryOptions } from '@/lib/auth';
import { harbour } from '@/lib/harbour';
import { HarbourFactsLoading, OfficeSpan, useHarbourFacts } from '@/components/harbour-facts';
import { harbourAccessQueryOptions } from '@/features/service/api/harbour-access';
import { feeAccessHoldQueryOptions } from '@/features/service/api/fee-access-hold';
import { FeeAccessHoldNotice } from '@/features/service/components/fee-access-hold';

function HowToGetThem({ kind, loggedIn }: { kind: 'door' | 'wifi'; loggedIn: boolean }) {
  const { t } = useLingui();
  const facts = useHarbourFacts();
  const phone = facts?.phone ?? harbour.phone;
  return (
    <>
      <Section title={t`So erhalten Sie den Zugang`}>
        <Prose>
          {kind === 'door' ? (
            loggedIn ? (
              <p>
                <Trans>
                  Der Türcode für Sanitärgebäude und Stegtor wird Gästen mit eingechecktem Liegeplatz bis zur Abreise angezeigt, außerdem
                  Langzeitliegern. Checken Sie am Anreisetag in Ihrer Buchung ein – danach steht der Code hier.
                </Trans>
              </p>
            ) : (
              <p>
                <Trans>
                  Der Türcode für Sanitärgebäude und Stegtor wird Gästen mit eingechecktem Liegeplatz bis zur Abreise angezeigt, außerdem
                  Langzeitliegern. Melden Sie sich an und checken Sie am Anreisetag ein – danach steht der Code hier.
                </Trans>
              </p>
            )
          ) : loggedIn ? (
            <p>
              <Trans>
                Die WLAN-Zugangsdaten sehen Gäste mit eingechecktem Liegeplatz bis zur Abreise und Langzeitlieger. Checken Sie am Anreisetag
                in Ihrer Buchung ein – danach stehen die Zugangsdaten hier.
              </Trans>
            </p>
          ) : (
            <p>
              <Trans>
                Die WLAN-Zugangsdaten sehen Gäste mit eingechecktem Liegeplatz bis zur Abreise und Langzeitlieger. Melden Sie sich an und
                checken Sie am Anreisetag ein – danach stehen die Zugangsdaten hier.
              </Trans>
            </p>
          )}
          {!loggedIn && (
            <p>
              <Trans>
                Sie haben als Gast ohne Konto gebucht? Bestätigen Sie Ihre E-Mail-Adresse mit dem Code aus der Buchungsbestätigung und
                checken Sie dann ein.
              </Trans>
            </p>
          )}
        </Prose>
        <div className="flex flex-wrap gap-2">
          {!loggedIn && (
            <Link to="/{-$locale}/auth/login" search={{ from: undefined }} className={buttonVariants()}>
              <Trans>Anmelden</Trans>
            </Link>
          )}
          <Link to="/{-$locale}/account/bookings" className={buttonVariants({ variant: loggedIn ? 'default' : 'outline' })}>
            <Trans>Meine Buchungen</Trans>
          </Link>
        </div>
      </Section>
      <Section title={t`Ankunft außerhalb der Öffnungszeiten`}>
        <Prose>
          <p data-testid="office-hours">
            {facts ? (
              <Trans>
                Öffnungszeiten des Hafenbüros: montags bis freitags <OfficeSpan value={facts.weekdays} />, am Wochenende{' '}
                <OfficeSpan value={facts.weekend} />.
              </Trans>
            ) : (
              <HarbourFactsLoading />
            )}
          </p>
          <p>
            <Trans>
              Kommen Sie später an, machen Sie an einem freien Gastliegeplatz am Kopfsteg fest und checken Sie in der App ein; der Code
              erscheint dann hier. Klappt das nicht, rufen Sie uns an: {phone}.
            </Trans>
          </p>
        </Prose>
      </Section>
    </>
  );
}

/** /service/door-code and /service/wifi: the codes only for whom harbour_access() allows. */
export function AccessCodesPage({ kind }: { kind: 'door' | 'wifi' }) {
  const { t } = useLingui();
  const identity = useQuery(identityQueryOptions);
  const userId = identity.data?.status === 'loggedIn' ? identity.data.userId : undefined;
  const access = useQuery({ ...harbourAccessQueryOptions(userId ?? ''), enabled: !!userId });
  const hold = useQuery({ ...feeAccessHoldQueryOptions(userId ?? ''), enabled: !!userId });
  const title = kind === 'door' ? t`Türcode` : t`WLAN`;
  const Icon = kind === 'door' ? KeyRound : Wifi;
  const lead =
    kind === 'door'
      ? t`Mit dem Türcode öffnen Sie das Stegtor und das Sanitärgebäude.`
      : t`Kostenloses WLAN im ganzen Hafen für unsere Gäste.`;
  const loading = identity.isPending || (!!userId && (access.isPending || hold.isPending));
  return (
    <Page title={title} lead={lead}>
      {loading ? (
        <p className="text-slate-600">
          <Trans>Wird geladen …</Trans>
        </p>
      ) : access.data ? (
        <div className="flex flex-col gap-2" data-testid="access-codes">
          {hold.data && <FeeAccessHoldNotice hold={hold.data} />}
          <p className="flex items-center gap-2 font-medium text-slate-800">
            <Icon className="size-5 text-primary-dark" aria-hidden />
            <Trans>Ihre Zugangsdaten</Trans>
          </p>
          <FactList
            items={
              kind === 'door'
                ? [{ label: t`Türcode`, value: <span className="font-mono text-lg">{access.data.door_code}</span> }]
                : [
                    { label: t`Netzwerk (SSID)`, value: <span className="font-mono">{access.data.wifi_ssid}</span> },
                    { label: t`Passwort`, value: <span className="font-mono">{access.data.wifi_password}</span> },
                  ]
            }
          />
          <p className="text-sm text-slate-600">
            <Trans>Bitte geben Sie die Zugangsdaten nicht weiter.</Trans>
          </p>
        </div>
      ) : hold.data?.withheld ? (
        <FeeAccessHoldNotice hold={hold.data} />
      ) : (
        <HowToGetThem kind={kind} loggedIn={!!userId} />
      )}
    </Page>
  );
}
