import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Prose, Section } from '@/components/page';
import { harbour } from '@/lib/harbour';
import { HarbourFactsLoading, useHarbourFacts } from '@/components/harbour-facts';
import { useQuery } from '@tanstack/react-query';
import { berlinDay, formatDay } from '@/lib/dates';
import { currentContractTermsQueryOptions, termsSections } from '@/features/legal/api/contract-terms';

export function PrivacyPage() {
  const { t } = useLingui();
  const facts = useHarbourFacts();
  const email = facts?.email ?? harbour.email;
  return (
    <Page title={t`Datenschutz`} lead={t`Wie wir mit Ihren Daten umgehen.`}>
      <Prose>
        <Section title={t`Verantwortlicher`}>
          <p data-testid="harbour-address">
            {facts ? (
              <>
                {harbour.name}, {facts.street}, {facts.postalCode} {facts.city}, <span data-testid="harbour-email">{facts.email}</span>
              </>
            ) : (
              <HarbourFactsLoading />
            )}
          </p>
        </Section>
        <Section title={t`Welche Daten wir verarbeiten`}>
          <p>
            <Trans>
              Für eine Buchung speichern wir Name, Anschrift, E-Mail, Telefon und Bootsdaten sowie Zeitraum und Liegeplatz. Wir brauchen
              sie, um den Vertrag zu erfüllen (Art. 6 Abs. 1 lit. b DSGVO) und um gesetzliche Aufbewahrungspflichten einzuhalten.
            </Trans>
          </p>
          <p>
            <Trans>
              Ihre Sprachwahl und Formulareingaben speichert die App im Speicher Ihres Browsers; ein Cookie merkt sich die Sprache für 365
              Tage. Wir setzen keine Tracking- oder Werbe-Cookies.
            </Trans>
          </p>
          <p>
            <Trans>
              Wasserstände und Wetter lädt Ihr Browser direkt von PEGELONLINE (WSV) und Bright Sky (Daten des Deutschen Wetterdienstes);
              dabei wird Ihre IP-Adresse an diese Dienste übermittelt.
            </Trans>
          </p>
        </Section>
        <Section title={t`Ihre Rechte`}>
          <p>
            <Trans>
              Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung, Datenübertragbarkeit und Widerspruch
              sowie auf Beschwerde bei der Aufsichtsbehörde (Landesbeauftragte für Datenschutz NRW). Schreiben Sie uns dazu an {email}.
            </Trans>
          </p>
        </Section>
      </Prose>
    </Page>
  );
}

export function TermsPage() {
  const { t } = useLingui();
  return (
    <Page title={t`AGB`} lead={t`Allgemeine Geschäftsbedingungen für Gastliegeplätze.`}>
      <Prose>
        <ol className="flex list-decimal flex-col gap-2 pl-5">
          <li>
            <Trans>
              Der Vertrag über einen Gastliegeplatz kommt mit der Buchungsbestätigung zustande. Unbestätigte Gastbuchungen verfallen nach 24
              Stunden.
            </Trans>
          </li>
          <li>
            <Trans>
              Übernachtungen laufen von 14:00 Uhr am Anreisetag bis 12:00 Uhr am Abreisetag; Tagesliegeplätze zwischen 08:00 und 22:00 Uhr
              für höchstens 5 Stunden.
            </Trans>
          </li>
          <li>
            <Trans>
              Es gelten die Preise der Preisliste zum Zeitpunkt der Buchung; sie sind Gesamtpreise inkl. gesetzlicher Mehrwertsteuer.
            </Trans>
          </li>
          <li>
            <Trans>Das Hafenteam kann aus betrieblichen Gründen einen gleichwertigen anderen Liegeplatz zuweisen.</Trans>
          </li>
          <li>
            <Trans>
              Der Bootsführer haftet für Schäden, die durch sein Boot oder seine Crew entstehen; eine Haftpflichtversicherung ist Pflicht.
            </Trans>
          </li>
          <li>
            <Trans>Die Hafenordnung ist Bestandteil dieses Vertrags.</Trans>
          </li>
        </ol>
      </Prose>
    </Page>
  );
}

export function ImpressumPage() {
  const { t } = useLingui();
  const facts = useHarbourFacts();
  return (
    <Page title={t`Impressum`}>
      <Prose>
        <p data-testid="harbour-address">
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
        </p>
        {facts ? (
          <p>
            <span data-testid="harbour-phone">
              <Trans>Telefon: {facts.phone}</Trans>
            </span>
            <br />
            <span data-testid="harbour-email">
              <Trans>E-Mail: {facts.email}</Trans>
            </span>
          </p>
        ) : (
          <p>
            <HarbourFactsLoading />
          </p>
        )}
        <p>
          <Trans>Vertreten durch die Hafenleitung. Registergericht: Amtsgericht Düsseldorf.</Trans>
        </p>
        <p>
          <Trans>Verantwortlich für den Inhalt nach § 18 Abs. 2 MStV: die Hafenleitung, Anschrift wie oben.</Trans>
        </p>
      </Prose>
    </Page>
  );
}

export function ContractPage() {
  const { t, i18n } = useLingui();
  const terms = useQuery(currentContractTermsQueryOptions);
  const body = terms.data ? (i18n.locale === 'en' ? terms.data.body_en : terms.data.body_de) : '';
  const version = terms.data?.version;
  const date = terms.data ? formatDay(berlinDay(terms.data.published_at), i18n.locale) : '';
  return (
    <Page title={t`Liegeplatzvertrag`} lead={t`Die Bedingungen für Langzeit- und Saisonliegeplätze im Hafen Düsseldorf.`}>
      <Prose>
        {terms.isPending ? (
          <p role="status">
            <Trans>Lädt…</Trans>
          </p>
        ) : terms.isError || !terms.data ? (
          <p role="alert">
            <Trans>Die Vertragsbedingungen können gerade nicht geladen werden. Bitte versuchen Sie es später noch einmal.</Trans>
          </p>
        ) : (
          <>
            <p data-testid="terms-version" className="text-sm text-slate-600">
              <Trans>
                Fassung {version} vom {date}
              </Trans>
            </p>
            {termsSections(body).map((section, i) => (
              <Section key={i} title={section.title}>
                {section.paragraphs.map((p, j) => (
                  <p key={j} className="whitespace-pre-line">
                    {p}
                  </p>
                ))}
              </Section>
            ))}
          </>
        )}
      </Prose>
    </Page>
  );
}
