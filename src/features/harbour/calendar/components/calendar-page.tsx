import { useId, useMemo, useState } from 'react';
import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { addDaysIso, berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import {
  CALENDAR_SPAN as SPAN,
  PLACE_BLOCK,
  blocksFor,
  calendarBlockQueryOptions,
  calendarDays,
  calendarPlacesQueryOptions,
  calendarRange,
  type CalendarData,
  type CalendarEntry,
  type CalendarView,
} from '@/features/harbour/calendar/api/calendar';
import { useOrderAction } from '@/features/harbour/orders';
import { useCalendarRealtime } from '@/features/harbour/shared/use-calendar-realtime';
import { BlockForm } from '@/features/harbour/calendar/components/block-form';
import { useCancelBerthBlock } from '@/features/harbour/calendar/api/berth-block';
import { harbourKeys } from '@/features/harbour/shared/keys';
import {
  HARBOUR_BAND_STYLE,
  KIND_STYLE,
  kindOf,
  Timeline,
  useKindLabels,
  type HarbourBand,
  type Kind,
  type PendingMove,
} from '@/features/harbour/calendar/components/timeline';
import { harbourStatusQueryOptions } from '@/lib/harbour-status';
import { RescheduleDialog, shiftedDates } from '@/features/harbour/calendar/components/reschedule-dialog';
import { movePrecheckQueryOptions, verdictMessage } from '@/features/harbour/calendar/api/move-precheck';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { FormAlert } from '@/components/form-alert';

type Place = CalendarData['places'][number];

/** The loaded blocks' occupations as one map: combined only when a block's answer changes (the timeline's bars are memoised on it). */
const mergeBlocks = (results: UseQueryResult<CalendarData['byPlace']>[]) => ({
  byPlace: Object.assign({}, ...results.map((r) => r.data ?? {})) as CalendarData['byPlace'],
  loaded: results.map((r) => r.data !== undefined),
  error: results.some((r) => r.error),
});

/**
 * The staff's booking timeline: every berth a row, every stay a bar; drag a booking to another
 * berth (move_booking, as the order's move dialog), drag over free days to block the berth or
 * start a walk-in booking. Live: other desks' changes arrive through Realtime.
 */
export function CalendarPage({
  from,
  view,
  onChange,
  placeId,
}: {
  from: string;
  view: CalendarView;
  onChange: (next: { from: string; view: CalendarView }) => void;
  placeId?: string;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const range = calendarRange(from, view);
  const live = useCalendarRealtime();
  const placesQuery = useQuery(calendarPlacesQueryOptions());
  // The harbour status per day (docs/adr/0053): closed and restricted days get a band.
  const harbourStatus = useQuery(harbourStatusQueryOptions);
  const harbourDays = useMemo(() => {
    const days = new Map<string, HarbourBand>();
    for (const row of harbourStatus.data ?? []) {
      if (row.status === 'closed') days.set(row.day, 'closed');
      else if (row.status === 'restricted' && !days.has(row.day)) days.set(row.day, 'restricted');
    }
    return days;
  }, [harbourStatus.data]);
  const labels = useKindLabels();
  const queryClient = useQueryClient();
  const today = berlinToday();
  const [filter, setFilter] = useState('');
  const filterId = useId();
  // With placeId (admin berth calendar): that berth only.
  const places = useMemo(() => {
    const all = (placeId ? placesQuery.data?.filter((p) => p.id === placeId) : placesQuery.data) ?? [];
    // Several words: the berths matching any of them (name or pier), e.g. "A03 B12".
    const words = filter
      .toLowerCase()
      .split(/[\s,]+/)
      .filter(Boolean);
    return words.length
      ? all.filter((p) => words.some((w) => p.name.toLowerCase().includes(w) || (p.pier ?? '').toLowerCase() === w))
      : all;
  }, [placesQuery.data, placeId, filter]);
  const names = useMemo(() => new Map((placesQuery.data ?? []).map((p) => [p.id, p.name])), [placesQuery.data]);

  // The occupations of the rows on screen, a block of berths at a time (and the block below).
  const [blocks, setBlocks] = useState<number[]>([0, 1]);
  const showRows = (first: number, last: number) => {
    const next = blocksFor(first, last, places.length);
    setBlocks((b) => (b.length === next.length && b.every((x, i) => x === next[i]) ? b : next));
  };
  const wanted = blocks.filter((b) => b * PLACE_BLOCK < places.length);
  const entries = useQueries({
    queries: wanted.map((b) =>
      calendarBlockQueryOptions(
        range.from,
        range.to,
        places.slice(b * PLACE_BLOCK, (b + 1) * PLACE_BLOCK).map((p) => p.id),
        names,
      ),
    ),
    combine: mergeBlocks,
  });
  // While a block loads (its berths changed: a berth added or archived elsewhere, the search
  // narrowed), the rows keep the bars of the last complete answer: without them a row's bars
  // left the page meanwhile, and a bar being dragged with them (dnd-kit then ends the drag
  // without a drop or a word). The bars are real occupations, at most as old as that answer.
  const complete = entries.loaded.every(Boolean);
  const [settled, setSettled] = useState(entries.byPlace);
  if (complete && settled !== entries.byPlace) setSettled(entries.byPlace);
  const byPlace = useMemo(() => (complete ? entries.byPlace : { ...settled, ...entries.byPlace }), [complete, entries.byPlace, settled]);
  const days = useMemo(() => calendarDays(range.from, range.to), [range.from, range.to]);
  const data: CalendarData = useMemo(() => ({ ...days, places, byPlace }), [days, places, byPlace]);
  const error = placesQuery.error || entries.error;
  const isPending = placesQuery.isPending;

  const [opened, setOpened] = useState<CalendarEntry | null>(null);
  const cancelBlock = useCancelBerthBlock();
  const cancelError = cancelBlock.isError;

  // Drag a bar to another berth: ask first, then move_booking; a refusal snaps the bar back.
  // `checking`: dropped, the database's pre-check (move_precheck) not yet answered: no dialog yet.
  const [pending, setPending] = useState<(PendingMove & { confirmed: boolean; checking?: boolean }) | null>(null);
  const [notify, setNotify] = useState(true);
  const [moveResult, setMoveResult] = useState<{ ok: boolean; text: string } | null>(null);
  const action = useOrderAction();
  const confirmMove = () => {
    if (!pending?.entry.order_id) return;
    const move = pending;
    setPending({ ...move, confirmed: true });
    action.mutate(
      { type: 'move', orderId: move.entry.order_id!, placeId: move.toPlace.id, notify },
      {
        onSuccess: async () => {
          setMoveResult({ ok: true, text: t`Auf Liegeplatz ${move.toPlace.name} umgelegt.` });
          await queryClient.invalidateQueries({ queryKey: harbourKeys.calendars() });
          setPending(null);
        },
        onError: (e) => {
          setPending(null);
          setMoveResult({ ok: false, text: t`Nicht umgelegt: ${staffErrorMessage(e)}` });
        },
      },
    );
  };

  // While a bar is dragged: every berth's verdict for the stay on the days it is shifted to (the
  // database's own rule, asked when the drag starts and per day shifted), marked on the rows.
  const [dragStay, setDragStay] = useState<{ entry: CalendarEntry; days: number } | null>(null);
  const dragDates = dragStay
    ? shiftedDates({
        entry: dragStay.entry,
        toPlace: { id: dragStay.entry.place_id, name: dragStay.entry.place_name, pier: null },
        days: dragStay.days,
      })
    : null;
  const verdicts = useQuery({
    ...movePrecheckQueryOptions(
      dragStay?.entry.order_id ?? '',
      dragStay?.days ? dragDates!.arrival : null,
      dragStay?.days ? dragDates!.departure : null,
    ),
    enabled: !!dragStay?.entry.order_id,
  });

  // A drop (or the end of a bar dragged): the pre-check first; a berth that cannot take the stay
  // refuses the drop with the reason, and only an allowed target gets the confirmation.
  const drop = async (move: PendingMove) => {
    setMoveResult(null);
    setNotify(true);
    const orderId = move.entry.order_id;
    if (!orderId) return;
    const dated = move.days !== 0 || !!move.endDays;
    const refuse = (reason: string) => ({ ok: false, text: dated ? t`Nicht verschoben: ${reason}` : t`Nicht umgelegt: ${reason}` });
    setPending({ ...move, confirmed: false, checking: true });
    const dates = dated ? shiftedDates(move) : null;
    let result: { ok: boolean; text: string } | null = null;
    try {
      const answer = await queryClient.fetchQuery(movePrecheckQueryOptions(orderId, dates?.arrival ?? null, dates?.departure ?? null));
      const verdict = answer.get(move.toPlace.id);
      if (verdict && verdict !== 'fits') result = refuse(verdictMessage(verdict));
    } catch (e) {
      result = refuse(staffErrorMessage(e));
    }
    // A later drop replaced this one meanwhile: leave it be.
    setPending((p) =>
      p?.entry.id === move.entry.id && p.toPlace.id === move.toPlace.id && p.days === move.days && p.endDays === move.endDays && p.checking
        ? result
          ? null
          : { ...p, checking: false }
        : p,
    );
    if (result) setMoveResult(result);
  };

  // Dragged to other days (and maybe another berth): reschedule_booking after its own dialog.
  const confirmReschedule = () => setPending((p) => (p ? { ...p, confirmed: true } : p));
  const settleReschedule = (result: { ok: boolean; text: string } | null) => {
    setPending(null);
    setMoveResult(result);
  };

  // The page's block form lists every berth (1,058 options): rendered again only when the berths change,
  // not on every render of the page (each loaded block of occupations, each scrolled block).
  const blockForm = useMemo(() => places.length > 0 && <BlockForm places={places} defaultDay={from} />, [places, from]);

  // Drag over free days (or the keyboard cursor + Enter): block the berth or book a walk-in there.
  const [selection, setSelection] = useState<{ place: Place; from: string; to: string } | null>(null);

  return (
    <Page title={t`Belegungskalender`}>
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label={t`Ansicht`} className="flex gap-1">
          {(['day', 'week', 'month'] as const).map((v) => (
            <Button
              key={v}
              size="sm"
              variant={v === view ? 'default' : 'outline'}
              aria-pressed={v === view}
              onClick={() => onChange({ from, view: v })}
            >
              {v === 'day' ? t`Tag` : v === 'week' ? t`Woche` : t`Monat`}
            </Button>
          ))}
        </div>
        <div className="flex items-center gap-1">
          <Button
            size="sm"
            variant="outline"
            aria-label={t`Zurück`}
            onClick={() => onChange({ from: addDaysIso(from, -SPAN[view]), view })}
          >
            <ChevronLeft aria-hidden />
          </Button>
          <Button size="sm" variant="outline" onClick={() => onChange({ from: today, view })}>
            <Trans>Heute</Trans>
          </Button>
          <Button size="sm" variant="outline" aria-label={t`Weiter`} onClick={() => onChange({ from: addDaysIso(from, SPAN[view]), view })}>
            <ChevronRight aria-hidden />
          </Button>
        </div>
        <span className="text-sm text-slate-700">
          {formatDay(range.from, locale)} – {formatDay(range.to, locale)}
        </span>
        <span className="text-sm text-slate-600" data-live={live} role="status">
          {live === 'live' ? t`Live` : live === 'connecting' ? t`Verbinde…` : t`Offline – Änderungen erscheinen beim Neuladen`}
        </span>
        {!placeId && (
          <div className="flex items-center gap-2 sm:ml-auto">
            <Label htmlFor={filterId} className="text-sm">
              <Trans>Liegeplatz suchen</Trans>
            </Label>
            <Input id={filterId} type="search" className="h-8 w-40" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </div>
        )}
      </div>

      <ul aria-label={t`Legende`} className="flex flex-wrap gap-3 text-sm">
        {(Object.keys(KIND_STYLE) as Kind[]).map((k) => (
          <li key={k} className="flex items-center gap-1">
            <span
              className="inline-flex h-5 min-w-10 items-center justify-center rounded border border-slate-300 px-1 text-xs font-semibold"
              style={KIND_STYLE[k]}
            >
              <span className="rounded bg-white/85 px-0.5 text-slate-900">{labels.short[k]}</span>
            </span>
            {labels.long[k]}
          </li>
        ))}
        {[...new Set(harbourDays.values())].sort().map((band) => (
          <li key={band} className="flex items-center gap-1" data-testid="harbour-band-legend">
            <span className="inline-block h-5 w-10 rounded border border-slate-300" style={HARBOUR_BAND_STYLE[band]} aria-hidden />
            {band === 'closed' ? <Trans>Hafen geschlossen</Trans> : <Trans>Hafen eingeschränkt befahrbar</Trans>}
          </li>
        ))}
      </ul>
      {/* The help folds away: on a phone the plan comes first (issue 40, item 14). */}
      <details data-timeline-help className="text-sm text-slate-600">
        <summary className="w-fit cursor-pointer font-medium text-slate-800">
          <Trans>Bedienung mit Maus und Tastatur</Trans>
        </summary>
        <p className="mt-1">
          <Trans>
            Buchungen auf einen anderen Liegeplatz oder andere Tage ziehen, um sie umzulegen oder zu verschieben (Tastatur: Leertaste,
            Pfeiltasten, Leertaste); das Ende ziehen ändert nur die Abreise (Tastatur: Umschalt+Pfeil links/rechts). Über freie Tage ziehen,
            um zu sperren oder eine Buchung anzulegen (Tastatur: Pfeiltasten, Umschalt+Pfeil, Eingabetaste).
          </Trans>
        </p>
        <p className="mt-1">
          <Trans>
            Beim Ziehen zeigt jede Zeile, ob der Liegeplatz die Buchung aufnehmen kann, und sonst warum nicht (zu klein, belegt, gesperrt
            …); dort lässt sie sich nicht ablegen.
          </Trans>
        </p>
      </details>

      {moveResult && (
        <p
          role={moveResult.ok ? 'status' : 'alert'}
          data-move-result={moveResult.ok ? 'ok' : 'refused'}
          className={moveResult.ok ? 'text-green-800' : 'rounded-md bg-red-50 p-2 text-red-800'}
        >
          {moveResult.text}
        </p>
      )}

      {error ? (
        <FormAlert>
          <Trans>Der Kalender konnte nicht geladen werden.</Trans>
        </FormAlert>
      ) : isPending ? (
        <p>
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <Timeline
          data={data}
          places={places}
          today={today}
          pending={pending}
          onMove={(entry, toPlace, days, endDays) => void drop({ entry, toPlace, days, endDays })}
          onDragStay={setDragStay}
          verdicts={dragStay ? verdicts.data : undefined}
          harbourDays={harbourDays}
          onSelect={(place, a, b) => setSelection({ place, from: a, to: b })}
          onOpen={(e) => {
            cancelBlock.reset();
            setOpened(e);
          }}
          loadedRow={(row) => entries.loaded[wanted.indexOf(Math.floor(row / PLACE_BLOCK))] === true}
          onRowsShown={showRows}
        />
      )}

      <RescheduleDialog
        key={
          pending && !pending.checking && (pending.days !== 0 || pending.endDays)
            ? `${pending.entry.id}:${pending.toPlace.id}:${pending.days}:${pending.endDays ?? ''}`
            : 'none'
        }
        move={pending && !pending.checking && (pending.days !== 0 || pending.endDays) ? pending : null}
        onConfirming={confirmReschedule}
        onSettled={settleReschedule}
      />
      <ConfirmDialog
        open={!!pending && !pending.checking && pending.days === 0 && !pending.endDays && !pending.confirmed}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={<Trans>Buchung umlegen?</Trans>}
        description={
          pending && (
            <Trans>
              {pending.entry.guest ?? ''} ({pending.entry.boat_name ?? ''}) wird von Liegeplatz {pending.entry.place_name} auf Liegeplatz{' '}
              {pending.toPlace.name} umgelegt; Zeitraum und Preis bleiben gleich.
            </Trans>
          )
        }
        confirmLabel={<Trans>Umlegen</Trans>}
        onConfirm={confirmMove}
      >
        <div className="flex items-start gap-2">
          <Checkbox id="move-notify" checked={notify} onCheckedChange={(v) => setNotify(v === true)} className="mt-0.5" />
          <Label htmlFor="move-notify" className="font-normal leading-snug">
            <Trans>Gast per E-Mail informieren (wenn eine Adresse hinterlegt ist)</Trans>
          </Label>
        </div>
      </ConfirmDialog>

      <Dialog
        open={!!selection}
        onOpenChange={(open) => {
          if (!open) setSelection(null);
        }}
      >
        <DialogContent className="max-h-[90vh] overflow-y-auto">
          {selection && (
            <>
              <DialogHeader>
                <DialogTitle>
                  <Trans>
                    Liegeplatz {selection.place.name}: {formatDay(selection.from, locale)} – {formatDay(selection.to, locale)}
                  </Trans>
                </DialogTitle>
                <DialogDescription>
                  <Trans>Den Liegeplatz für diese Tage sperren oder eine Buchung für einen Gast vor Ort anlegen.</Trans>
                </DialogDescription>
              </DialogHeader>
              <Link
                to="/{-$locale}/account/admin/orders/new"
                search={{ place: selection.place.id, arrival: selection.from, departure: addDaysIso(selection.to, 1) }}
                className="font-medium text-primary-dark underline underline-offset-4"
              >
                <Trans>
                  Buchung für Liegeplatz {selection.place.name} anlegen (Anreise {formatDay(selection.from, locale)}, Abreise{' '}
                  {formatDay(addDaysIso(selection.to, 1), locale)})
                </Trans>
              </Link>
              <BlockForm
                key={`${selection.place.id}${selection.from}${selection.to}`}
                places={[selection.place]}
                defaultDay={selection.from}
                defaultTo={selection.to}
                onSaved={() => setSelection(null)}
              />
            </>
          )}
        </DialogContent>
      </Dialog>

      <Dialog
        open={!!opened}
        onOpenChange={(open) => {
          if (!open) setOpened(null);
        }}
      >
        <DialogContent>
          {opened && (
            <>
              <DialogHeader>
                <DialogTitle>
                  {labels.long[kindOf(opened)]} · <Trans>Liegeplatz {opened.place_name}</Trans>
                </DialogTitle>
                <DialogDescription>
                  {formatBerlinDateTime(opened.starts_at, locale)} –{' '}
                  {opened.ends_at ? formatBerlinDateTime(opened.ends_at, locale) : t`unbefristet`}
                </DialogDescription>
              </DialogHeader>
              <ul className="grid gap-1 text-sm">
                {opened.guest && (
                  <li>
                    <Trans>Gast: {opened.guest}</Trans>
                  </li>
                )}
                {opened.boat_name && (
                  <li>
                    <Trans>Boot: {opened.boat_name}</Trans>
                  </li>
                )}
                {opened.note && <li className="text-slate-600">{opened.note}</li>}
              </ul>
              {opened.order_id && (
                <Link
                  to="/{-$locale}/account/admin/orders/$id"
                  params={{ id: opened.order_id }}
                  className="font-medium text-primary-dark underline underline-offset-4"
                >
                  <Trans>Buchung öffnen</Trans>
                </Link>
              )}
              {opened.type === 'service' && (
                <div>
                  <Button
                    variant="outline"
                    disabled={cancelBlock.isPending}
                    onClick={() => cancelBlock.mutate(opened.id, { onSuccess: () => setOpened(null) })}
                  >
                    <Trans>Sperre aufheben</Trans>
                  </Button>
                </div>
              )}
              {cancelError && (
                <FormAlert>
                  <Trans>Die Sperre konnte nicht aufgehoben werden.</Trans>
                </FormAlert>
              )}
            </>
          )}
        </DialogContent>
      </Dialog>

      {blockForm}
    </Page>
  );
}
