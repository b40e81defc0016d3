import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Mail, MapPin, Phone, Radio, Ship } from 'lucide-react';
import { StartCard, StartCardContent, StartCardHeader, StartCardTitle } from '@/features/start/components/start-card';
import { formatDecimal } from '@/lib/numbers';
import { useAppQuery } from '@/lib/query';
import { harbourIntroQueryOptions, openStreetMapUrl, telHref, type HarbourIntro as Intro } from '@/lib/harbour-intro';

function hours(opens: string | null, closes: string | null) {
  return opens && closes ? `${opens}–${closes}` : null;
}

function OfficeHours({ intro }: { intro: Intro }) {
  const { i18n } = useLingui();
  const weekdays = hours(intro.office_weekdays_opens, intro.office_weekdays_closes);
  const weekend = hours(intro.office_weekend_opens, intro.office_weekend_closes);
  const note = (i18n.locale === 'en' && intro.office_hours_note_en) || intro.office_hours_note;
  return (
    <>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800" data-testid="office-hours">
        <dt>
          <Trans>Montag bis Freitag</Trans>
        </dt>
        <dd>{weekdays ? <Trans>{weekdays} Uhr</Trans> : <Trans>geschlossen</Trans>}</dd>
        <dt>
          <Trans>Samstag und Sonntag</Trans>
        </dt>
        <dd>{weekend ? <Trans>{weekend} Uhr</Trans> : <Trans>geschlossen</Trans>}</dd>
      </dl>
      {note && <p className="text-sm text-slate-600">{note}</p>}
    </>
  );
}

function WaterApproach({ intro }: { intro: Intro }) {
  const { i18n } = useLingui();
  const text = (i18n.locale === 'en' && intro.water_approach_en) || intro.water_approach;
  const km = intro.rhine_km == null ? null : formatDecimal(intro.rhine_km, i18n.locale, 1);
  const channel = intro.vhf_channel;
  return (
    <>
      {(km || channel != null) && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800" data-testid="water-facts">
          {km && (
            <>
              <dt>
                <Trans>Rhein-Kilometer</Trans>
              </dt>
              <dd className="font-semibold">{km}</dd>
            </>
          )}
          {channel != null && (
            <>
              <dt className="flex items-center gap-1">
                <Radio className="size-4 text-primary-dark" aria-hidden />
                <Trans>UKW-Kanal</Trans>
              </dt>
              <dd className="font-semibold">{channel}</dd>
            </>
          )}
        </dl>
      )}
      {text && <p className="text-slate-800">{text}</p>}
    </>
  );
}

/** The start page's introduction of the harbour: address and map, office hours, the approach by water (harbour_intro(), set by admins). */
export function HarbourIntro() {
  const { t } = useLingui();
  const intro = useAppQuery(harbourIntroQueryOptions);
  const data = intro.data;
  const unavailable = intro.isError || (!intro.isPending && !data);
  const status = intro.isPending ? (
    <Trans>Wird geladen …</Trans>
  ) : (
    <Trans>Zurzeit nicht verfügbar – Adresse und Öffnungszeiten finden Sie auch unter Kontakt.</Trans>
  );
  return (
    <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3" aria-label={t`Der Hafen`} data-testid="harbour-intro">
      <li>
        <StartCard className="h-full">
          <StartCardHeader>
            <StartCardTitle small className="flex items-center gap-2">
              <MapPin className="size-5 text-primary-dark" aria-hidden />
              <Trans>Adresse</Trans>
            </StartCardTitle>
          </StartCardHeader>
          <StartCardContent className="flex min-h-24 flex-col gap-3">
            {data && !unavailable ? (
              <>
                <address className="not-italic text-slate-800" data-testid="harbour-address">
                  {t`Hafen Düsseldorf`}
                  <br />
                  {data.address_street}
                  <br />
                  {data.address_postal_code} {data.address_city}
                </address>
                {(data.phone || data.email) && (
                  <p className="flex flex-col gap-1 text-slate-800">
                    {data.phone && (
                      <a
                        href={telHref(data.phone)}
                        className="flex items-center gap-2 underline underline-offset-4"
                        data-testid="harbour-phone"
                      >
                        <Phone className="size-4 shrink-0 text-primary-dark" aria-hidden />
                        <span className="sr-only">
                          <Trans>Telefon:</Trans>{' '}
                        </span>
                        {data.phone}
                      </a>
                    )}
                    {data.email && (
                      <a
                        href={`mailto:${data.email}`}
                        className="flex items-center gap-2 break-all underline underline-offset-4"
                        data-testid="harbour-email"
                      >
                        <Mail className="size-4 shrink-0 text-primary-dark" aria-hidden />
                        <span className="sr-only">
                          <Trans>E-Mail:</Trans>{' '}
                        </span>
                        {data.email}
                      </a>
                    )}
                  </p>
                )}
                {data.latitude != null && data.longitude != null && (
                  <a
                    href={openStreetMapUrl(data.latitude, data.longitude)}
                    className="text-primary-dark underline underline-offset-4"
                    data-testid="map-link"
                  >
                    <Trans>Auf der Karte ansehen (OpenStreetMap)</Trans>
                  </a>
                )}
              </>
            ) : (
              <p className="text-slate-600">{status}</p>
            )}
          </StartCardContent>
        </StartCard>
      </li>
      <li>
        <StartCard className="h-full">
          <StartCardHeader>
            <StartCardTitle small className="flex items-center gap-2">
              <Clock className="size-5 text-primary-dark" aria-hidden />
              <Trans>Öffnungszeiten Hafenbüro</Trans>
            </StartCardTitle>
          </StartCardHeader>
          <StartCardContent className="flex min-h-24 flex-col gap-2">
            {data && !unavailable ? <OfficeHours intro={data} /> : <p className="text-slate-600">{status}</p>}
          </StartCardContent>
        </StartCard>
      </li>
      <li className="md:col-span-2 lg:col-span-1">
        <StartCard className="h-full">
          <StartCardHeader>
            <StartCardTitle small className="flex items-center gap-2">
              <Ship className="size-5 text-primary-dark" aria-hidden />
              <Trans>Anreise über das Wasser</Trans>
            </StartCardTitle>
          </StartCardHeader>
          <StartCardContent className="flex min-h-24 flex-col gap-2" data-testid="water-approach">
            {data && !unavailable ? <WaterApproach intro={data} /> : <p className="text-slate-600">{status}</p>}
          </StartCardContent>
        </StartCard>
      </li>
    </ul>
  );
}
