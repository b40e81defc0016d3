import { Trans, useLingui } from '@lingui/react/macro';
import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { Page, Section } from '@/components/page';
import { harbour } from '@/lib/harbour';
import { ContactForm } from './contact-form';

export function ContactPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Kontakt`} lead={t`Fragen zu Liegeplätzen, Service oder Ihrer Buchung? Wir helfen gern.`}>
      <div className="grid gap-6 md:grid-cols-2">
        <Section title={t`So erreichen Sie uns`}>
          <address className="flex flex-col gap-3 not-italic text-slate-800">
            <p className="flex gap-2"><MapPin className="mt-0.5 size-5 shrink-0 text-primary-dark" aria-hidden /><span>{harbour.name}<br />{harbour.street}<br />{harbour.postalCode} {harbour.city}</span></p>
            <p className="flex gap-2"><Phone className="size-5 text-primary-dark" aria-hidden /><a className="underline underline-offset-4" href={`tel:${harbour.phone.replace(/\s/g, '')}`}>{harbour.phone}</a></p>
            <p className="flex gap-2"><Mail className="size-5 text-primary-dark" aria-hidden /><a className="underline underline-offset-4" href={`mailto:${harbour.email}`}>{harbour.email}</a></p>
          </address>
          <h3 className="mt-2 flex items-center gap-2 font-semibold"><Clock className="size-5 text-primary-dark" aria-hidden /><Trans>Öffnungszeiten Hafenbüro</Trans></h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
            <dt><Trans>Montag bis Freitag</Trans></dt><dd><Trans>{harbour.hours.weekdays} Uhr</Trans></dd>
            <dt><Trans>Samstag und Sonntag</Trans></dt><dd><Trans>{harbour.hours.weekend} Uhr</Trans></dd>
          </dl>
          <p className="text-sm text-slate-600"><Trans>Von April bis Oktober; im Winter nach Vereinbarung.</Trans></p>
        </Section>
        <Section title={t`Schreiben Sie uns`}>
          <ContactForm />
        </Section>
      </div>
    </Page>
  );
}
