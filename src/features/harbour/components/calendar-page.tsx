import { useMemo, useState, type CSSProperties } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { addDaysIso, berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { CALENDAR_SPAN as SPAN, calendarQueryOptions, calendarRange, type CalendarEntry, type CalendarView } from '../api/calendar';
import { useCalendarRealtime } from '../hooks/use-calendar-realtime';
import { BlockForm } from './block-form';
import { cancelBerthBlock } from '../api/berth-block';
import { harbourKeys } from '../api/keys';


type Kind = 'reservation' | 'rent' | 'maintenance' | 'blocked' | 'long_term';
const kindOf = (e: CalendarEntry): Kind =>
  e.type === 'service' ? (e.block_reason === 'reserved' ? 'blocked' : 'maintenance') : e.type;

/** Colour AND pattern per kind (never colour alone); the cell also carries a short label. */
const KIND_STYLE: Record<Kind, CSSProperties> = {
  reservation: { backgroundColor: '#fde68a', backgroundImage: 'repeating-linear-gradient(45deg, rgba(146,64,14,.35) 0 2px, transparent 2px 8px)', color: '#78350f' },
  rent: { backgroundColor: '#15803d', color: '#fff' },
  maintenance: { backgroundColor: '#e2e8f0', backgroundImage: 'repeating-linear-gradient(45deg, rgba(51,65,85,.45) 0 2px, transparent 2px 7px), repeating-linear-gradient(-45deg, rgba(51,65,85,.45) 0 2px, transparent 2px 7px)', color: '#0f172a' },
  blocked: { backgroundColor: '#fecaca', backgroundImage: 'repeating-linear-gradient(90deg, rgba(153,27,27,.35) 0 2px, transparent 2px 6px)', color: '#7f1d1d' },
  long_term: { backgroundColor: '#bfdbfe', backgroundImage: 'radial-gradient(rgba(30,64,175,.5) 1.5px, transparent 1.5px)', backgroundSize: '6px 6px', color: '#1e3a8a' },
};

function useKindLabels() {
  const { t } = useLingui();
  const long: Record<Kind, string> = { reservation: t`Reservierung`, rent: t`Vermietet (eingecheckt)`, maintenance: t`Wartung`, blocked: t`Gesperrt`, long_term: t`Langzeitliegeplatz` };
  const short: Record<Kind, string> = { reservation: t`Res.`, rent: t`Miete`, maintenance: t`Wart.`, blocked: t`Gesp.`, long_term: t`Dauer` };
  return { long, short };
}

export function CalendarPage({ from, view, onChange, placeId }: { from: string; view: CalendarView; onChange: (next: { from: string; view: CalendarView }) => void; placeId?: string }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const range = calendarRange(from, view);
  const live = useCalendarRealtime();
  const { data, error, isPending } = useQuery(calendarQueryOptions(range.from, range.to));
  const labels = useKindLabels();
  const [selected, setSelected] = useState<{ place: string; day: string } | null>(null);
  const queryClient = useQueryClient();
  const [cancelError, setCancelError] = useState(false);
  const cancelBlock = async (id: string) => {
    const ok = await cancelBerthBlock(id);
    setCancelError(!ok);
    if (ok) await queryClient.invalidateQueries({ queryKey: harbourKeys.all });
  };
  const today = berlinToday();
  // With placeId (admin berth calendar): that berth only.
  const places = useMemo(() => (placeId ? data?.places.filter((p) => p.id === placeId) : data?.places) ?? [], [data, placeId]);

  const selectedEntries = useMemo(() => (selected && data ? (data.cells[selected.place]?.[selected.day] ?? []) : []), [selected, data]);
  const selectedPlace = places.find((p) => p.id === selected?.place);

  const describe = (e: CalendarEntry) => {
    const parts = [labels.long[kindOf(e)], e.guest, e.boat_name, e.note].filter(Boolean);
    return parts.join(' · ');
  };

  return (
    <Page title={t`Belegungskalender`}>
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label={t`Ansicht`} className="flex gap-1">
          {(['day', 'week', 'month'] as const).map((v) => (
            <Button key={v} size="sm" variant={v === view ? 'default' : 'outline'} aria-pressed={v === view} onClick={() => onChange({ from, view: v })}>
              {v === 'day' ? t`Tag` : v === 'week' ? t`Woche` : t`Monat`}
            </Button>
          ))}
        </div>
        <div className="flex items-center gap-1">
          <Button size="sm" variant="outline" aria-label={t`Zurück`} onClick={() => onChange({ from: addDaysIso(from, -SPAN[view]), view })}><ChevronLeft aria-hidden /></Button>
          <Button size="sm" variant="outline" onClick={() => onChange({ from: today, view })}><Trans>Heute</Trans></Button>
          <Button size="sm" variant="outline" aria-label={t`Weiter`} onClick={() => onChange({ from: addDaysIso(from, SPAN[view]), view })}><ChevronRight aria-hidden /></Button>
        </div>
        <span className="text-sm text-slate-600" data-live={live} role="status">
          {live === 'live' ? t`Live` : live === 'connecting' ? t`Verbinde…` : t`Offline – Änderungen erscheinen beim Neuladen`}
        </span>
      </div>

      <ul aria-label={t`Legende`} className="flex flex-wrap gap-3 text-sm">
        {(Object.keys(KIND_STYLE) as Kind[]).map((k) => (
          <li key={k} className="flex items-center gap-1">
            <span className="inline-flex h-5 min-w-10 items-center justify-center rounded border border-slate-300 px-1 text-xs font-semibold" style={KIND_STYLE[k]}>{labels.short[k]}</span>
            {labels.long[k]}
          </li>
        ))}
      </ul>

      {error ? (
        <p role="alert" className="text-red-700"><Trans>Der Kalender konnte nicht geladen werden.</Trans></p>
      ) : isPending ? (
        <p><Trans>Lädt…</Trans></p>
      ) : (
        // Focusable, so the keyboard can scroll it even when no cell inside takes focus (axe).
        <div className="overflow-x-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label={t`Belegungsplan`}>
          <table className="w-full border-collapse text-xs" aria-label={t`Belegung ${formatDay(range.from, locale)} bis ${formatDay(range.to, locale)}`}>
            <thead>
              <tr>
                <th scope="col" className="sticky left-0 z-10 bg-white p-2 text-left"><Trans>Liegeplatz</Trans></th>
                {data.days.map((d) => (
                  <th key={d} scope="col" className={`min-w-14 p-1 text-center font-medium ${d === today ? 'bg-sky-100' : ''}`} aria-current={d === today ? 'date' : undefined}>
                    {formatDay(d, locale).replace(/ \d{4}$/, '')}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {places.map((place) => (
                <tr key={place.id} className="border-t border-slate-100">
                  <th scope="row" className="sticky left-0 z-10 whitespace-nowrap bg-white p-2 text-left font-medium">{place.name}</th>
                  {data.days.map((day) => {
                    const entries = data.cells[place.id]?.[day] ?? [];
                    const first = entries[0];
                    const label = first ? `${place.name}, ${formatDay(day, locale)}: ${entries.map(describe).join('; ')}` : `${place.name}, ${formatDay(day, locale)}: ${t`frei`}`;
                    return (
                      <td key={day} className="border-l border-slate-100 p-0.5" data-place={place.id} data-day={day} data-kind={first ? kindOf(first) : 'free'}>
                        {first ? (
                          <button
                            type="button"
                            title={label}
                            aria-label={label}
                            aria-expanded={selected?.place === place.id && selected.day === day}
                            onClick={() => setSelected(selected?.place === place.id && selected.day === day ? null : { place: place.id, day })}
                            className="flex h-8 w-full items-center justify-center rounded border border-slate-300 px-1 font-semibold"
                            style={KIND_STYLE[kindOf(first)]}
                          >
                            <span className="rounded bg-white/80 px-0.5 text-slate-900">{labels.short[kindOf(first)]}{entries.length > 1 ? ` +${entries.length - 1}` : ''}</span>
                          </button>
                        ) : (
                          <span className="block h-8" title={label}><span className="sr-only">{label}</span></span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {selected && selectedEntries.length > 0 && (
        <section aria-label={t`Details`} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <h2 className="font-semibold">{selectedPlace?.name} · {formatDay(selected.day, locale)}</h2>
          <ul className="mt-2 grid gap-2">
            {selectedEntries.map((e) => (
              <li key={e.id}>
                <strong>{labels.long[kindOf(e)]}</strong>
                {e.guest && <> · <Trans>Gast: {e.guest}</Trans></>}
                {e.boat_name && <> · <Trans>Boot: {e.boat_name}</Trans></>}
                <div className="text-slate-600">
                  {formatBerlinDateTime(e.starts_at, locale)} – {e.ends_at ? formatBerlinDateTime(e.ends_at, locale) : t`unbefristet`}
                </div>
                {e.note && <div className="text-slate-600">{e.note}</div>}
                {e.type === 'service' && (
                  <Button size="sm" variant="outline" className="mt-1" onClick={() => void cancelBlock(e.id)}><Trans>Sperre aufheben</Trans></Button>
                )}
              </li>
            ))}
          </ul>
          {cancelError && <p role="alert" className="mt-2 text-red-700"><Trans>Die Sperre konnte nicht aufgehoben werden.</Trans></p>}
        </section>
      )}

      {places.length > 0 && <BlockForm places={places} defaultDay={from} />}
    </Page>
  );
}
