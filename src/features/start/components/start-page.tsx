import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, CalendarCheck, Euro, Film, MapPinned, Newspaper } from 'lucide-react';
import { Page, Section } from '@/components/page';
import { buttonVariants } from '@/components/ui/button-variants';
import { StartCard, StartCardContent, StartCardDescription, StartCardHeader, StartCardTitle } from '@/features/start/components/start-card';
import { useAppQuery } from '@/lib/query';
import { activeNewsQueryOptions } from '@/features/start/api/active-news';
import { HarbourIntro } from '@/features/start/components/harbour-intro';
import { lazy, Suspense } from 'react';
import { harbourStatusQueryOptions } from '@/lib/harbour-status';

// Only when the harbour is not simply open (restricted, closed, or set by staff): then the status
// component loads, so a normal day's first download stays within its budget (ADR 0043, 0053).
const HarbourStatus = lazy(() => import('@/components/harbour-status').then((m) => ({ default: m.HarbourStatus })));
function HarbourWarning() {
  const status = useAppQuery(harbourStatusQueryOptions);
  const now = status.data?.find((r) => r.kind === 'now');
  if (!now?.status || (now.status === 'open' && !now.override_reason)) return null;
  return (
    <Suspense fallback={null}>
      <HarbourStatus />
    </Suspense>
  );
}

function News() {
  const { t, i18n } = useLingui();
  const news = useAppQuery(activeNewsQueryOptions);
  if (news.isPending)
    return (
      <p className="text-slate-600">
        <Trans>News werden geladen …</Trans>
      </p>
    );
  if (news.isError)
    return (
      <p className="text-slate-600">
        <Trans>Die News sind zurzeit nicht verfügbar.</Trans>
      </p>
    );
  if (!news.data?.length)
    return (
      <p className="text-slate-600">
        <Trans>Zurzeit gibt es keine Neuigkeiten aus dem Hafen.</Trans>
      </p>
    );
  const en = i18n.locale === 'en';
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={t`Aktuelle News`}>
      {news.data.map((item) => (
        <li key={item.id}>
          <StartCard className="h-full">
            <StartCardHeader>
              <StartCardTitle small>
                <Link to="/{-$locale}/news/$id" params={{ id: item.id }} className="hover:underline focus-visible:underline">
                  {(en && item.title_en) || item.title}
                </Link>
              </StartCardTitle>
            </StartCardHeader>
            <StartCardContent>
              <p className="text-sm text-slate-700">{(en && item.short_description_en) || item.short_description}</p>
            </StartCardContent>
          </StartCard>
        </li>
      ))}
    </ul>
  );
}

export function StartPage() {
  const { t } = useLingui();
  return (
    <Page
      title={t`Willkommen im Hafen Düsseldorf`}
      lead={t`Liegeplätze am Rhein für eine Nacht, einen Tag oder die ganze Saison – mitten in Düsseldorf, wenige Minuten von der Altstadt.`}
    >
      <HarbourWarning />
      <div className="grid items-stretch gap-6 md:grid-cols-2">
        <img
          src="/media/harbour-illustration.svg"
          alt={t`Zeichnung: der Hafen am Rhein mit Stegen, Booten und dem Rheinturm`}
          width={1200}
          height={600}
          className="aspect-[2/1] max-h-56 w-full rounded-xl border border-slate-200 bg-sky-50 object-cover md:h-full md:max-h-none"
        />
        <StartCard primary>
          <StartCardHeader>
            <StartCardTitle className="flex items-center gap-2">
              <Anchor className="size-5 text-primary-dark" aria-hidden />
              <Trans>Liegeplatz buchen</Trans>
            </StartCardTitle>
            <StartCardDescription>
              <Trans>
                Geben Sie Länge und Breite Ihres Boots und Ihren Zeitraum an – wir zeigen Ihnen die freien Plätze, die passen. Buchen geht
                auch ohne Konto.
              </Trans>
            </StartCardDescription>
          </StartCardHeader>
          <StartCardContent>
            <Link to="/{-$locale}/start/booking" className={buttonVariants({ size: 'lg' })}>
              <CalendarCheck aria-hidden />
              <Trans>Jetzt buchen</Trans>
            </Link>
          </StartCardContent>
        </StartCard>
      </div>

      <Section
        title={
          <span className="flex items-center gap-2">
            <MapPinned className="size-5" aria-hidden />
            <Trans>Ihr Hafen am Rhein</Trans>
          </span>
        }
      >
        <HarbourIntro />
      </Section>

      <div className="grid gap-6 md:grid-cols-2">
        <Section
          title={
            <span className="flex items-center gap-2">
              <Euro className="size-5" aria-hidden />
              <Trans>Preise</Trans>
            </span>
          }
        >
          <p className="text-slate-800">
            <Trans>
              Übernachten und Tagesliegeplätze nach laufendem Meter; alle Preise in der Preisliste sind Gesamtpreise inkl. MwSt.
            </Trans>
          </p>
          <div>
            <Link to="/{-$locale}/start/prices" className={buttonVariants({ variant: 'outline' })}>
              <Trans>Alle Preise ansehen</Trans>
            </Link>
          </div>
        </Section>

        <Section
          title={
            <span className="flex items-center gap-2">
              <Film className="size-5" aria-hidden />
              <Trans>Der Hafen von oben</Trans>
            </span>
          }
        >
          <p className="text-slate-800">
            <Trans>Sehen Sie sich vor der Anreise an, wo Sie festmachen.</Trans>{' '}
            <Link to="/{-$locale}/drone-video" className="text-primary-dark underline underline-offset-4">
              <Trans>Zum Drohnenvideo</Trans>
            </Link>
          </p>
        </Section>
      </div>

      {/* Last: the news arrive after the first paint (the page is prerendered, scripts/lib/prerender.ts),
          and their height is only known then; nothing below them moves on a phone's first screen. */}
      <Section
        title={
          <span className="flex items-center gap-2">
            <Newspaper className="size-5" aria-hidden />
            <Trans>Neuigkeiten</Trans>
          </span>
        }
      >
        <News />
        <p>
          <Link to="/{-$locale}/news" className="text-primary-dark underline underline-offset-4">
            <Trans>Alle Neuigkeiten</Trans>
          </Link>
        </p>
      </Section>
    </Page>
  );
}
