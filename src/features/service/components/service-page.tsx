import { Link, type LinkProps } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Car,
  ChevronRight,
  ClipboardList,
  CloudSun,
  Droplets,
  Fuel,
  GraduationCap,
  KeyRound,
  Sailboat,
  Snowflake,
  Waves,
  Wifi,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import { Page, Prose, Section } from '@/components/page';
import { WaterLevels } from '@/features/service/components/water-levels';
import { HarbourStatus } from '@/components/harbour-status';
import { HarbourStatusDetails } from '@/features/service/components/harbour-status-details';
import { Weather } from '@/features/service/components/weather';

type Topic = { to?: LinkProps['to']; hash?: string; label: string; Icon: LucideIcon };

/** The twelve service topics; water levels, weather and harbour regulations are sections on this page. */
export function ServicePage() {
  const { t } = useLingui();
  const topics: Topic[] = [
    { hash: 'water-levels', label: t`Wasserstände`, Icon: Waves },
    { hash: 'weather', label: t`Wetterdienst`, Icon: CloudSun },
    { to: '/{-$locale}/service/skipper-training', label: t`Skipperschulung`, Icon: GraduationCap },
    { to: '/{-$locale}/service/park', label: t`Parken`, Icon: Car },
    { to: '/{-$locale}/service/door-code', label: t`Türcode`, Icon: KeyRound },
    { to: '/{-$locale}/service/charter', label: t`Charter`, Icon: Sailboat },
    { to: '/{-$locale}/service/wifi', label: t`WLAN`, Icon: Wifi },
    { to: '/{-$locale}/service/ice-machine', label: t`Eismaschine`, Icon: Snowflake },
    { to: '/{-$locale}/service/care-diesel', label: t`Care Diesel`, Icon: Fuel },
    { to: '/{-$locale}/service/lift', label: t`Bootskran`, Icon: Anchor },
    { hash: 'regulations', label: t`Hafenordnung`, Icon: ClipboardList },
    { to: '/{-$locale}/service/mechanists', label: t`Mechaniker`, Icon: Wrench },
  ];
  const itemClass = 'flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 hover:border-primary hover:bg-primary-light';
  return (
    <Page title={t`Service`} lead={t`Alles, was Sie im Hafen brauchen – vom Pegel bis zum Mechaniker.`}>
      <nav aria-label={t`Servicethemen`}>
        <ul className="grid grid-cols-1 gap-2 xs:grid-cols-2 md:grid-cols-3">
          {topics.map(({ to, hash, label, Icon }) => (
            <li key={label}>
              {to ? (
                <Link to={to} className={itemClass}>
                  <Icon className="size-5 text-primary-dark" aria-hidden />
                  <span className="flex-1">{label}</span>
                  <ChevronRight className="size-4 text-slate-500" aria-hidden />
                </Link>
              ) : (
                <a href={`#${hash}`} className={itemClass}>
                  <Icon className="size-5 text-primary-dark" aria-hidden />
                  <span className="flex-1">{label}</span>
                </a>
              )}
            </li>
          ))}
        </ul>
      </nav>

      <Link
        to="/{-$locale}/service/order"
        className="flex items-center gap-3 rounded-lg bg-primary-dark p-4 text-white hover:bg-primary-darker"
      >
        <Droplets className="size-5" aria-hidden />
        <span className="flex-1 font-medium">
          <Trans>Service anfragen: Eis, Kran, Waschmaschine, Reparatur</Trans>
        </span>
        <ChevronRight className="size-4" aria-hidden />
      </Link>

      <Section id="water-levels" title={t`Wasserstände`} className="scroll-mt-16">
        <div className="flex flex-col gap-3">
          <HarbourStatus>
            <HarbourStatusDetails />
          </HarbourStatus>
          <WaterLevels />
        </div>
      </Section>

      <Section id="weather" title={t`Wetterdienst`} className="scroll-mt-16">
        <Weather />
      </Section>

      <Section id="regulations" title={t`Hafenordnung`} className="scroll-mt-16">
        <Prose>
          <ul>
            <li>
              <Trans>Melden Sie sich bei der Ankunft im Hafenbüro oder checken Sie in der App ein.</Trans>
            </li>
            <li>
              <Trans>Im Hafen gilt Schrittgeschwindigkeit: kein Sog, kein Schwell.</Trans>
            </li>
            <li>
              <Trans>Nachtruhe von 22:00 bis 07:00 Uhr; Motoren und Generatoren bleiben dann aus.</Trans>
            </li>
            <li>
              <Trans>Festmacher, Fender und Landstromkabel müssen in gutem Zustand sein.</Trans>
            </li>
            <li>
              <Trans>Abwasser, Altöl und Bilgenwasser gehören in die Entsorgungsstation, nie in den Rhein.</Trans>
            </li>
            <li>
              <Trans>Hunde an die Leine; Kinder tragen auf den Stegen eine Rettungsweste.</Trans>
            </li>
            <li>
              <Trans>Grillen nur an den ausgewiesenen Plätzen, kein offenes Feuer auf den Stegen.</Trans>
            </li>
            <li>
              <Trans>Den Anweisungen des Hafenteams ist Folge zu leisten.</Trans>
            </li>
          </ul>
        </Prose>
      </Section>
    </Page>
  );
}
