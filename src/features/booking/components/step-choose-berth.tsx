import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Ruler } from 'lucide-react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { harbour } from '@/lib/harbour';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { bookingErrorMessage } from '../api/booking-errors';
import { searchPlacesQueryOptions } from '../api/search-places';
import type { PlaceResult } from '../api/types';
import { PlacePhoto } from './place-photo';
import type { BerthDataValues } from '../schemas/berth-data';

/** Results shown at first and per "show more": the smallest fitting berths come first. */
const PAGE = 10;

const metres = (n: number | string, locale: string) => Number(n).toLocaleString(locale === 'en' ? 'en-GB' : 'de-DE', { maximumFractionDigits: 2 });

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
 * Step 2, your berth: the berths that fit, smallest first, each with image, size, features and
 * price. `forStaff`: the walk-in booking at the desk (the guest's boat; no e-mail to the harbour).
 */
export function StepChooseBerth({ berth, notice, onChoose, onBack, forStaff = false }: { berth: BerthDataValues; notice?: 'berth-taken'; onChoose: (place: PlaceResult) => void; onBack: () => void; forStaff?: boolean }) {
  const { t, i18n } = useLingui();
  const featureLabel = useFeatureLabel();
  const stayText = useStayText();
  const search = useQuery(searchPlacesQueryOptions(berth));
  const [shown, setShown] = useState(PAGE);
  if (search.isPending) return <p role="status" className="text-slate-700"><Trans>Wir suchen freie Liegeplätze …</Trans></p>;
  if (search.isError) {
    return (
      <div className="flex flex-col gap-3">
        <p role="alert" className="rounded-md bg-red-50 p-3 text-red-900">{bookingErrorMessage(search.error)}</p>
        <div><Button variant="outline" onClick={onBack}><Trans>Angaben ändern</Trans></Button></div>
      </div>
    );
  }
  const places = search.data;
  const size = t`${metres(berth.boatLength.replace(',', '.'), i18n.locale)} m × ${metres(berth.boatWidth.replace(',', '.'), i18n.locale)} m`;
  const subject = t`Liegeplatzanfrage`;
  const body = t`Guten Tag,

ich suche einen Liegeplatz für mein Boot „${berth.boatName}“ (${size}) im Zeitraum ${stayText(berth)}. Online war kein passender Platz frei. Können Sie das bitte prüfen?

Vielen Dank und viele Grüße`;
  const mailto = `mailto:${harbour.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
  return (
    <div className="flex flex-col gap-4">
      {notice === 'berth-taken' && (
        <p role="alert" className="rounded-md bg-amber-50 p-3 text-amber-950">
          <Trans>Der gewählte Liegeplatz wurde gerade von jemand anderem gebucht. Hier sind die aktuell freien Plätze – bitte wählen Sie einen anderen.</Trans>
        </p>
      )}
      <p className="text-slate-700">{forStaff ? <Trans>Für das Boot des Gastes ({size}), {stayText(berth)}:</Trans> : <Trans>Für Ihr Boot ({size}), {stayText(berth)}:</Trans>}</p>
      <ul className="grid gap-4 md:grid-cols-2" aria-label={t`Freie Liegeplätze`}>
        {places.slice(0, shown).map((p) => (
          <li key={p.place_id} className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
            {p.image_path ? (
              <PlacePhoto path={p.image_path} alt={t`Liegeplatz ${p.name}`} />
            ) : (
              <div className="flex aspect-[16/9] w-full items-center justify-center bg-sky-50 text-sky-800" role="img" aria-label={t`Liegeplatz ${p.name}`}>
                <Anchor className="size-12" aria-hidden />
              </div>
            )}
            <div className="flex flex-1 flex-col gap-2 p-4">
              <h3 className="text-lg font-semibold"><Trans>Liegeplatz {p.name}</Trans></h3>
              <p className="flex items-center gap-2 text-sm text-slate-700">
                <Ruler className="size-4" aria-hidden />
                <Trans>{metres(p.length, i18n.locale)} m lang, {metres(p.width, i18n.locale)} m breit</Trans>
              </p>
              <p className="text-sm text-slate-700">{i18n.locale === 'en' ? (p.description_en ?? p.description) : p.description}</p>
              {p.features.length > 0 && (
                <ul className="flex flex-wrap gap-1" aria-label={t`Ausstattung`}>
                  {p.features.map((f) => <li key={f} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800">{featureLabel(f)}</li>)}
                </ul>
              )}
              <div className="mt-auto flex items-end justify-between gap-2 pt-2">
                <p>
                  <span className="block text-xl font-bold" data-testid="place-price">{formatEuro(Number(p.price_cents), i18n.locale)}</span>
                  <span className="text-xs text-slate-600"><Trans>inkl. 19 % MwSt.</Trans></span>
                </p>
                <Button onClick={() => onChoose(p)} aria-label={t`Liegeplatz ${p.name} wählen`}><Trans>Wählen</Trans></Button>
              </div>
            </div>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        {places.length > shown && (
          <Button variant="secondary" onClick={() => setShown((n) => n + PAGE)}>
            <Trans>Weitere Liegeplätze anzeigen ({places.length - shown})</Trans>
          </Button>
        )}
        <Button variant="outline" onClick={onBack}><Trans>Angaben ändern</Trans></Button>
      </div>
      <Dialog open={places.length === 0} onOpenChange={(open) => !open && onBack()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle><Trans>Kein Liegeplatz verfügbar</Trans></DialogTitle>
            {notice === 'berth-taken' && (
              <p role="alert" className="text-sm text-amber-950"><Trans>Der gewählte Liegeplatz wurde gerade von jemand anderem gebucht.</Trans></p>
            )}
            <DialogDescription>
              {forStaff ? (
                <Trans>Für das Boot des Gastes ({size}) ist im gewünschten Zeitraum kein passender Liegeplatz frei.</Trans>
              ) : (
                <Trans>Für Ihr Boot ({size}) ist im gewünschten Zeitraum online kein passender Liegeplatz frei. Schreiben Sie uns bitte eine E-Mail mit Bootsgröße und Zeitraum – wir prüfen das von Hand und melden uns.</Trans>
              )}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={onBack}><Trans>Angaben ändern</Trans></Button>
            {!forStaff && <a href={mailto} className={buttonVariants()}><Trans>E-Mail an den Hafen schreiben</Trans></a>}
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
