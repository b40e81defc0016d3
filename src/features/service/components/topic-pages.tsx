import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { FactList, Page, Prose, Section } from '@/components/page';
import { buttonVariants } from '@/components/ui/button';
import { streetParkingMaxHours } from '@/lib/prices';
import { ListPrices } from '@/features/prices';

function OrderLink() {
  return (
    <div>
      <Link to="/{-$locale}/service/order" className={buttonVariants()}>
        <Trans>Service anfragen</Trans>
      </Link>
    </div>
  );
}

export function IceMachinePage() {
  const { t } = useLingui();
  return (
    <Page title={t`Eismaschine`} lead={t`Crushed Ice für Kühlbox und Getränke – frisch aus der Eismaschine am Hafenbüro.`}>
      <ListPrices codes={['ice_2kg', 'ice_5kg', 'cooler_deposit']} />
      <Prose>
        <p>
          <Trans>
            Eis gibt es während der Öffnungszeiten im Hafenbüro. Sie haben keine Kühlbox dabei? Leihen Sie eine gegen Pfand; das Pfand
            erhalten Sie bei Rückgabe zurück.
          </Trans>
        </p>
        <p>
          <Trans>Alle Preise inkl. MwSt.</Trans>
        </p>
      </Prose>
      <OrderLink />
    </Page>
  );
}

export function LiftPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Bootskran`} lead={t`Kranen zum Winterlager, für einen Unterwasseranstrich oder eine Reparatur.`}>
      <ListPrices codes={['boat_lift']} />
      <Prose>
        <p>
          <Trans>
            Der Preis hängt von Größe und Gewicht des Boots ab. Nennen Sie uns bei der Anfrage Länge, Breite, Gewicht und Wunschtermin; das
            Hafenteam bestätigt den Termin.
          </Trans>
        </p>
        <p>
          <Trans>Alle Preise inkl. MwSt.</Trans>
        </p>
      </Prose>
      <OrderLink />
    </Page>
  );
}

export function ParkPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Parken`} lead={t`Parken am Hafen für Gäste und Liegeplatzmieter.`}>
      <ListPrices codes={['parking_key_deposit']} />
      <FactList items={[{ label: t`Parken auf der Straße vor dem Hafen`, value: t`höchstens ${streetParkingMaxHours} Stunden` }]} />
      <Prose>
        <p>
          <Trans>
            Der Parkplatz hinter der Schranke ist für Gäste mit Liegeplatz reserviert. Den Schlüssel für die Schranke erhalten Sie gegen
            Pfand im Hafenbüro; das Pfand bekommen Sie bei der Rückgabe zurück.
          </Trans>
        </p>
        <p>
          <Trans>
            Auf der Straße vor dem Hafen dürfen Sie mit Parkscheibe höchstens {streetParkingMaxHours} Stunden parken. Für längere
            Aufenthalte gibt es Parkhäuser im Medienhafen.
          </Trans>
        </p>
      </Prose>
    </Page>
  );
}

export function CareDieselPage() {
  const { t } = useLingui();
  return (
    <Page
      title={t`Care Diesel`}
      lead={t`Tanken Sie an unserer Bootstankstelle Care Diesel – erneuerbaren Diesel aus Rest- und Abfallstoffen (HVO).`}
    >
      <Prose>
        <p>
          <Trans>
            Care Diesel kann in den meisten Dieselmotoren ohne Umbau getankt werden und senkt die CO₂-Emissionen deutlich. Prüfen Sie im
            Zweifel die Freigabe Ihres Motorenherstellers.
          </Trans>
        </p>
        <p>
          <Trans>
            Die Tankstelle ist während der Öffnungszeiten des Hafenbüros besetzt. Der aktuelle Literpreis hängt aus und wird Ihnen vor dem
            Tanken genannt.
          </Trans>
        </p>
      </Prose>
      <OrderLink />
    </Page>
  );
}

export function CharterPage() {
  const { t } = useLingui();
  return (
    <Page
      title={t`Charter`}
      lead={t`Kein eigenes Boot? Chartern Sie eine Motoryacht für einen Tag auf dem Rhein oder eine Woche auf den Kanälen.`}
    >
      <Prose>
        <p>
          <Trans>
            Unsere Charterpartner liegen direkt im Hafen. Für führerscheinfreie Boote reicht eine Einweisung; für größere Yachten brauchen
            Sie den Sportbootführerschein Binnen.
          </Trans>
        </p>
        <p>
          <Trans>Schreiben Sie uns über das Kontaktformular Zeitraum, Personenzahl und Erfahrung – wir stellen den Kontakt her.</Trans>
        </p>
      </Prose>
      <div>
        <Link to="/{-$locale}/contact" className={buttonVariants()}>
          <Trans>Kontakt aufnehmen</Trans>
        </Link>
      </div>
    </Page>
  );
}

export function MechanistsPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Mechaniker`} lead={t`Motor, Elektrik oder Rumpf: Fachbetriebe aus der Region kommen zu Ihnen an den Steg.`}>
      <Prose>
        <p>
          <Trans>
            Das Hafenteam vermittelt Bootsmechaniker für Innen- und Außenborder, Bootselektriker und Bootsbauer. Beschreiben Sie das Problem
            in einer Serviceanfrage; wir melden uns mit einem Termin.
          </Trans>
        </p>
        <p>
          <Trans>Im Notfall außerhalb der Öffnungszeiten erreichen Sie die Wasserschutzpolizei über den Notruf 110.</Trans>
        </p>
      </Prose>
      <OrderLink />
    </Page>
  );
}

export function SkipperTrainingPage() {
  const { t } = useLingui();
  return (
    <Page title={t`Skipperschulung`} lead={t`Vom Sportbootführerschein bis zum Manövertraining im eigenen Boot.`}>
      <Section title={t`Kurse`}>
        <Prose>
          <ul>
            <li>
              <Trans>Sportbootführerschein Binnen: Theorie an Abenden, Praxis auf dem Rhein</Trans>
            </li>
            <li>
              <Trans>Manövertraining: An- und Ablegen in der Strömung, im eigenen oder im Schulboot</Trans>
            </li>
            <li>
              <Trans>Funkzeugnis UBI für die Binnenschifffahrt</Trans>
            </li>
          </ul>
          <p>
            <Trans>Die Kurse führt unsere Partnerschule im Hafen durch. Fragen Sie nach Terminen über das Kontaktformular.</Trans>
          </p>
        </Prose>
      </Section>
      <div>
        <Link to="/{-$locale}/contact" className={buttonVariants()}>
          <Trans>Kontakt aufnehmen</Trans>
        </Link>
      </div>
    </Page>
  );
}
