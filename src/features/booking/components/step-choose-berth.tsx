import { lazy, Suspense, useRef, useState, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Ruler } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useHarbourContact } from '@/components/harbour-facts';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';

import { placePhotosQueryOptions } from '@/features/booking/api/place-photos';
import { searchPlacesQueryOptions } from '@/features/booking/api/search-places';
import { stayHarbourStatusQueryOptions } from '@/features/booking/api/stay-harbour-status';
import type { PlaceResult } from '@/features/booking/api/types';
import type { PlanCentre } from '@/features/booking/components/berth-plan';
import { PlacePhoto } from '@/features/booking/components/place-photo';
import { StayHarbourNotice } from '@/features/booking/components/stay-harbour-notice';
import { DepthNotice } from '@/features/booking/components/depth-notice';
import type { BerthDataValues } from '@/features/booking/schemas/berth-values';
import { errorMessage } from '@/lib/errors/guest-messages';
import { FormAlert } from '@/components/form-alert';
import { absenceLetPlacesQueryOptions } from '@/features/booking/api/absence-let-places';

/** Results shown at first and per "show more": the smallest fitting berths come first. */
const PAGE = 10;

/** The harbour plan is its own chunk: loaded when it is shown (from md beside the list; on phones when chosen). */
const BerthPlan = lazy(() => import('@/features/booking/components/berth-plan'));

const WIDE = '(min-width: 768px)';
const subscribeWide = (onChange: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
/** From md the list and the plan stand side by side; below, a toggle shows one of them. */
const useWide = () =>
  useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );

const metres = (n: number | string, locale: string) =>
  Number(n).toLocaleString(locale === 'en' ? 'en-GB' : 'de-DE', { maximumFractionDigits: 2 });

function useFeatureLabel() {
  const { t } = useLingui();
  const labels: Record<string, string> = { electricity: t`Strom`, water: t`Wasser`, wifi: t`WLAN`, lighting: t`Beleuchtung` };
  return (f: string) => labels[f] ?? f;
}

/** The stay in words, for the dialog's e-mail and the summary. */
export function useStayText() {
  const { t, i18n } = useLingui();
  return (b: BerthDataValues) =>
    b.kind === 'day'
      ? t`${formatDay(b.arrival, i18n.locale)}, ${b.dayStart}–${b.dayEnd} Uhr`
      : t`${formatDay(b.arrival, i18n.locale)} bis ${formatDay(b.departure, i18n.locale)}`;
}

/**
 * Step 2, your berth: the berths that fit, smallest first, as compact cards (photos, size,
 * features, price) beside the harbour plan, where every berth is shown and the free fitting ones
 * can be chosen (issue 24). `forStaff`: the walk-in booking at the desk (the guest's boat; no e-mail to the harbour).
 */
export function StepChooseBerth({
  berth,
  notice,
  onChoose,
  onBack,
  forStaff = false,
}: {
  berth: BerthDataValues;
  notice?: 'berth-taken';
  onChoose: (place: PlaceResult) => void;
  onBack: () => void;
  forStaff?: boolean;
}) {
  const { t, i18n } = useLingui();
  const harbour = useHarbourContact();
  const stayText = useStayText();
  const search = useQuery(searchPlacesQueryOptions(berth));
  // The harbour status of the stay's days (docs/adr/0053): a closure says why no berth is
  // offered, a restriction warns. Its failure only leaves the notice out.
  const stayStatus = useQuery(stayHarbourStatusQueryOptions(berth));
  const [shown, setShown] = useState(PAGE);
  const wide = useWide();
  const [view, setView] = useState<'list' | 'plan'>('list');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // The plan's zoom and position outlive its mounts (layout changes, the phone toggle).
  const [planZoom, setPlanZoom] = useState(0);
  const planCentre = useRef<PlanCentre>(null);
  const visibleIds = [...(search.data ?? []).slice(0, shown).map((p) => p.place_id), ...(selectedId ? [selectedId] : [])];
  const photos = useQuery({ ...placePhotosQueryOptions(visibleIds), enabled: !!search.data, placeholderData: (previous) => previous });
  // Berths let from a long-term holder's absence get a mark (issue 43, ADR 0054); nights only.
  const fromAbsence = useQuery({
    ...absenceLetPlacesQueryOptions(berth.arrival, berth.departure || berth.arrival),
    enabled: berth.kind !== 'day' && !!search.data,
  });
  if (search.isPending || stayStatus.isPending)
    return (
      <p role="status" className="text-slate-700">
        <Trans>Wir suchen freie Liegeplätze …</Trans>
      </p>
    );
  if (search.isError) {
    return (
      <div className="flex flex-col gap-3">
        <FormAlert box>{errorMessage(search.error)}</FormAlert>
        <div>
          <Button variant="outline" onClick={onBack}>
            <Trans>Angaben ändern</Trans>
          </Button>
        </div>
      </div>
    );
  }
  // A guest's search into a closure offers nothing (search_available_places): the notice says why.
  const closed = !forStaff && (stayStatus.data ?? []).some((d) => d.status === 'closed');
  const places = closed ? [] : search.data;
  const selected = places.find((p) => p.place_id === selectedId);
  const size = t`${metres(berth.boatLength.replace(',', '.'), i18n.locale)} m × ${metres(berth.boatWidth.replace(',', '.'), i18n.locale)} m`;
  const subject = t`Liegeplatzanfrage`;
  const body = t`Guten Tag,

ich suche einen Liegeplatz für mein Boot „${berth.boatName}“ (${size}) im Zeitraum ${stayText(berth)}. Online war kein passender Platz frei. Können Sie das bitte prüfen?

Vielen Dank und viele Grüße`;
  const mailto = `mailto:${harbour.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
  return (
    <div className="flex flex-col gap-4">
      {notice === 'berth-taken' && (
        <FormAlert variant="warning" box>
          <Trans>
            Der gewählte Liegeplatz wurde gerade von jemand anderem gebucht. Hier sind die aktuell freien Plätze – bitte wählen Sie einen
            anderen.
          </Trans>
        </FormAlert>
      )}
      <p className="text-slate-700">
        {forStaff ? (
          <Trans>
            Für das Boot des Gastes ({size}), {stayText(berth)}:
          </Trans>
        ) : (
          <Trans>
            Für Ihr Boot ({size}), {stayText(berth)}:
          </Trans>
        )}
      </p>
      {stayStatus.data && <StayHarbourNotice days={stayStatus.data} forStaff={forStaff} />}
      {places.length > 0 && <DepthNotice berth={berth} />}
      {!wide && places.length > 0 && (
        <div role="group" aria-label={t`Ansicht`} className="grid grid-cols-2 gap-2">
          <Button variant={view === 'list' ? 'default' : 'outline'} aria-pressed={view === 'list'} onClick={() => setView('list')}>
            <Trans>Liste</Trans>
          </Button>
          <Button variant={view === 'plan' ? 'default' : 'outline'} aria-pressed={view === 'plan'} onClick={() => setView('plan')}>
            <Trans>Hafenplan</Trans>
          </Button>
        </div>
      )}
      <div className="flex flex-col gap-4 md:grid md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] md:items-start md:gap-6">
        {!closed && (wide || view === 'list') && (
          <div className="flex min-w-0 flex-col gap-3">
            <ul className="grid grid-cols-[minmax(0,1fr)] gap-3" aria-label={t`Freie Liegeplätze`}>
              {places.slice(0, shown).map((p) => (
                <BerthCard
                  key={p.place_id}
                  place={p}
                  photos={photos.data?.[p.place_id]}
                  selected={selectedId === p.place_id}
                  fromAbsence={fromAbsence.data?.includes(p.place_id)}
                  onChoose={onChoose}
                />
              ))}
            </ul>
            {places.length > shown && (
              <div>
                <Button variant="secondary" onClick={() => setShown((n) => n + PAGE)}>
                  <Trans>Weitere Liegeplätze anzeigen ({places.length - shown})</Trans>
                </Button>
              </div>
            )}
          </div>
        )}
        {(wide || view === 'plan') && places.length > 0 && (
          <div className="flex flex-col gap-3 md:sticky md:top-4">
            <Suspense
              fallback={
                <p role="status" className="text-slate-700">
                  <Trans>Der Hafenplan lädt …</Trans>
                </p>
              }
            >
              <BerthPlan
                berth={berth}
                places={places}
                selectedId={selectedId}
                onSelect={setSelectedId}
                zoomStep={planZoom}
                onZoomStep={setPlanZoom}
                centreRef={planCentre}
                narrow={!wide}
              />
            </Suspense>
            {selected && (
              <section aria-label={t`Ihre Auswahl`} className="flex flex-col gap-2">
                <h3 className="text-sm font-medium text-slate-700">
                  <Trans>Ihre Auswahl auf dem Plan:</Trans>
                </h3>
                <ul className="grid">
                  <BerthCard place={selected} photos={photos.data?.[selected.place_id]} selected full onChoose={onChoose} />
                </ul>
              </section>
            )}
          </div>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={onBack}>
          <Trans>Angaben ändern</Trans>
        </Button>
      </div>
      <Dialog open={places.length === 0 && !closed} onOpenChange={(open) => !open && onBack()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              <Trans>Kein Liegeplatz verfügbar</Trans>
            </DialogTitle>
            {notice === 'berth-taken' && (
              <FormAlert variant="warning" className="text-sm">
                <Trans>Der gewählte Liegeplatz wurde gerade von jemand anderem gebucht.</Trans>
              </FormAlert>
            )}
            <DialogDescription>
              {forStaff ? (
                <Trans>Für das Boot des Gastes ({size}) ist im gewünschten Zeitraum kein passender Liegeplatz frei.</Trans>
              ) : (
                <Trans>
                  Für Ihr Boot ({size}) ist im gewünschten Zeitraum online kein passender Liegeplatz frei. Schreiben Sie uns bitte eine
                  E-Mail mit Bootsgröße und Zeitraum – wir prüfen das von Hand und melden uns.
                </Trans>
              )}
            </DialogDescription>
            <DepthNotice berth={berth} className="text-sm" />
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={onBack}>
              <Trans>Angaben ändern</Trans>
            </Button>
            {!forStaff && (
              <a href={mailto} className={buttonVariants()}>
                <Trans>E-Mail an den Hafen schreiben</Trans>
              </a>
            )}
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** A compact berth card: name, size, price and the choice first; the photos as a strip of thumbnails in their order. */
function BerthCard({
  place: p,
  photos,
  selected,
  onChoose,
  full = false,
  fromAbsence = false,
}: {
  place: PlaceResult;
  photos: string[] | undefined;
  selected: boolean;
  fromAbsence?: boolean;
  onChoose: (place: PlaceResult) => void;
  full?: boolean;
}) {
  const { t, i18n } = useLingui();
  const featureLabel = useFeatureLabel();
  const paths = photos ?? (p.image_path ? [p.image_path] : []);
  const description = i18n.locale === 'en' ? p.description_en || p.description : p.description;
  return (
    <li
      data-place={p.name}
      aria-current={selected ? 'true' : undefined}
      className={`flex flex-col gap-2 rounded-xl border bg-white p-3 shadow-sm ${selected ? 'border-sky-700 ring-2 ring-sky-700' : 'border-slate-200'}`}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold [overflow-wrap:anywhere]">
            <Trans>Liegeplatz {p.name}</Trans>
          </h3>
          <p className="flex items-center gap-1.5 text-sm text-slate-700">
            <Ruler className="size-4 shrink-0" aria-hidden />
            <Trans>
              {metres(p.length, i18n.locale)} m lang, {metres(p.width, i18n.locale)} m breit
            </Trans>
          </p>
          {fromAbsence && (
            <p className="mt-1 inline-block rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800" data-testid="from-absence">
              <Trans>Frei, weil der Langzeitlieger unterwegs ist</Trans>
            </p>
          )}
        </div>
        <p className="shrink-0 text-right">
          <span className="block text-lg font-bold leading-tight" data-testid="place-price">
            {formatEuro(Number(p.price_cents), i18n.locale)}
          </span>
          <span className="text-xs text-slate-600">
            <Trans>inkl. 19 % MwSt.</Trans>
          </span>
        </p>
      </div>
      {paths.length > 0 && (
        <div role="group" aria-label={t`Fotos von Liegeplatz ${p.name}`} className="flex snap-x gap-2 overflow-x-auto">
          {paths.map((path, i) => (
            <PlacePhoto
              key={path}
              path={path}
              alt={t`Liegeplatz ${p.name}, Foto ${i + 1} von ${paths.length}`}
              className="aspect-[4/3] h-16 w-auto shrink-0 snap-start rounded-md object-cover"
            />
          ))}
        </div>
      )}
      {/* On a phone the list shows the essentials (several cards at a glance); the chosen card says all. */}
      {description && <p className={`text-sm text-slate-700 ${full ? '' : 'hidden sm:line-clamp-2'}`}>{description}</p>}
      <div className="flex items-end justify-between gap-2">
        {p.features.length > 0 ? (
          <ul className="flex flex-wrap gap-1" aria-label={t`Ausstattung`}>
            {p.features.map((f) => (
              <li key={f} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800">
                {featureLabel(f)}
              </li>
            ))}
          </ul>
        ) : (
          <span />
        )}
        <Button size="sm" className="shrink-0" onClick={() => onChoose(p)} aria-label={t`Liegeplatz ${p.name} wählen`}>
          <Trans>Wählen</Trans>
        </Button>
      </div>
    </li>
  );
}
