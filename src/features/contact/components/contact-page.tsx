import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { Page, Section } from '@/components/page';
import { harbour } from '@/lib/harbour';
import { HarbourFactsLoading, OfficeSpan, telHref, useHarbourFacts } from '@/components/harbour-facts';
import { ContactForm } from '@/features/contact/components/contact-form';

export function ContactPage() {
  const { t } = useLingui();
  const facts = useHarbourFacts();
  return (
    <Page title={t`Kontakt`} lead={t`Fragen zu Liegeplätzen, Service oder Ihrer Buchung? Wir helfen gern.`}>
      <div className="grid gap-6 md:grid-cols-2">
        <Section title={t`So erreichen Sie uns`}>
          <address className="flex flex-col gap-3 not-italic text-slate-800">
            <p className="flex gap-2">
              <MapPin className="mt-0.5 size-5 shrink-0 text-primary-dark" aria-hidden />
              <span data-testid="harbour-address">
                {harbour.name}
                <br />
                {facts ? (
                  <>
                    {facts.street}
                    <br />
                    {facts.postalCode} {facts.city}
                  </>
                ) : (
                  <HarbourFactsLoading />
                )}
              </span>
            </p>
            <p className="flex gap-2">
              <Phone className="size-5 text-primary-dark" aria-hidden />
              {facts ? (
                <a className="underline underline-offset-4" href={telHref(facts.phone)} data-testid="harbour-phone">
                  {facts.phone}
                </a>
              ) : (
                <HarbourFactsLoading />
              )}
            </p>
            <p className="flex gap-2">
              <Mail className="size-5 text-primary-dark" aria-hidden />
              {facts ? (
                <a className="break-all underline underline-offset-4" href={`mailto:${facts.email}`} data-testid="harbour-email">
                  {facts.email}
                </a>
              ) : (
                <HarbourFactsLoading />
              )}
            </p>
          </address>
          <h3 className="mt-2 flex items-center gap-2 font-semibold">
            <Clock className="size-5 text-primary-dark" aria-hidden />
            <Trans>Öffnungszeiten Hafenbüro</Trans>
          </h3>
          {facts ? (
            <>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800" data-testid="office-hours">
                <dt>
                  <Trans>Montag bis Freitag</Trans>
                </dt>
                <dd>
                  <OfficeSpan value={facts.weekdays} />
                </dd>
                <dt>
                  <Trans>Samstag und Sonntag</Trans>
                </dt>
                <dd>
                  <OfficeSpan value={facts.weekend} />
                </dd>
              </dl>
              {facts.note && <p className="text-sm text-slate-600">{facts.note}</p>}
            </>
          ) : (
            <p>
              <HarbourFactsLoading />
            </p>
          )}
        </Section>
        <Section title={t`Schreiben Sie uns`}>
          <ContactForm />
        </Section>
      </div>
    </Page>
  );
}
