import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { Minus, Plus } from 'lucide-react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { getSupabase } from '@/lib/auth';
import { fetchAll } from '@/lib/fetch-all';
import { bookingKeys } from '@/features/booking/api/keys';
import type { PlaceResult } from '@/features/booking/api/types';
import { parseDecimal, type BerthDataValues } from '@/features/booking/schemas/berth-values';
import { BERTH, ColumnMarker, HarbourPlan, PLAN, type PlanColumn } from '@/features/booking/components/harbour-plan';
import { FormAlert } from '@/components/form-alert';

/** What the plan needs of every active berth: no guest data (places is readable for everyone, its active rows). */
interface PlanPlace {
  id: string;
  name: string;
  pier: string | null;
  length: number;
  width: number;
  one_day: boolean;
  position: number[] | null;
}

const planQueryOptions = () =>
  queryOptions({
    queryKey: bookingKeys.plan(),
    queryFn: async (): Promise<{ berths: PlanPlace[]; columns: PlanColumn[] }> => {
      const supabase = await getSupabase();
      // Staff read archived berths too (the walk-in booking): the plan shows the active ones.
      const [berths, columns] = await Promise.all([
        fetchAll((lo, hi) =>
          supabase
            .from('places')
            .select('id, name, pier, length, width, one_day, position')
            .eq('archived', false)
            .order('name')
            .order('id')
            .range(lo, hi),
        ),
        fetchAll((lo, hi) => supabase.from('additional_places').select('id, type, name, position').order('name').order('id').range(lo, hi)),
      ]);
      return { berths, columns };
    },
    staleTime: 5 * 60_000,
  });

/** Why a berth cannot be chosen for this stay (the same rules as the search, in this order). */
export type Unavailable = 'day_only' | 'overnight_only' | 'too_short' | 'too_narrow' | 'taken';

function reasonOf(place: PlanPlace, berth: BerthDataValues, free: ReadonlySet<string>): Unavailable | null {
  if (free.has(place.id)) return null;
  if (place.one_day && berth.kind !== 'day') return 'day_only';
  if (!place.one_day && berth.kind === 'day') return 'overnight_only';
  if (Number(place.length) < parseDecimal(berth.boatLength)) return 'too_short';
  if (Number(place.width) < parseDecimal(berth.boatWidth)) return 'too_narrow';
  return 'taken';
}

/** A berth's hit area: the spacing of neighbouring berths on a pier (56 x 38 units), larger than its drawing. */
const HIT = { w: 56, h: 38 };
/** The plan is never drawn smaller than this (a berth's hit area stays at least 42 x 28 px; narrower screens pan). */
const MIN_SCALE = 0.75;
/** Zoom steps of the plan (times the width it fits at); beyond the first, the frame pans both ways. */
const ZOOMS = [1, 1.5, 2, 3] as const;

/** The point in the middle of the plan's frame, as fractions of the plan. */
export type PlanCentre = { x: number; y: number } | null;

/**
 * The harbour plan of step 2: every active berth at its position, the fitting free ones
 * selectable, the others shown with why they are not (text on the berth, its name and title).
 * Loaded on demand (import()) so the booking's first step does not carry it.
 */
export default function BerthPlan({
  berth,
  places,
  selectedId,
  onSelect,
  zoomStep,
  onZoomStep,
  centreRef,
  narrow = false,
}: {
  berth: BerthDataValues;
  /** A phone: the plan pier by pier (a pier selector, its berths as a list beside the pier), not the drawing. */
  narrow?: boolean;
  places: readonly PlaceResult[];
  selectedId: string | null;
  onSelect: (placeId: string) => void;
  /**
   * The zoom step and the frame's centre are kept by the step around the plan: the plan is
   * mounted again when the layout changes (turning a tablet across 768 px, the list/plan toggle
   * on phones) and comes back as it was left.
   */
  zoomStep: number;
  onZoomStep: (step: number) => void;
  centreRef: RefObject<PlanCentre>;
}) {
  const { t, i18n } = useLingui();
  const plan = useQuery(planQueryOptions());
  const scroller = useRef<HTMLDivElement>(null);
  const [info, setInfo] = useState<string | null>(null);
  const zoom = ZOOMS[zoomStep]!;
  const centreOf = (el: HTMLElement) => ({
    x: (el.scrollLeft + el.clientWidth / 2) / el.scrollWidth,
    y: (el.scrollTop + el.clientHeight / 2) / el.scrollHeight,
  });
  // Zooming keeps the point in the middle of the frame in the middle; so does mounting again.
  const keepCentre = useRef<PlanCentre>(null);
  const zoomTo = (step: number) => {
    const el = scroller.current;
    if (el) keepCentre.current = centreOf(el);
    onZoomStep(step);
  };
  const ready = !!plan.data;
  const restored = useRef(false);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Once the plan is there, back where it was left (if it was shown before), then at each zoom.
    const c = keepCentre.current ?? (restored.current ? null : centreRef.current);
    restored.current = true;
    if (!c) return;
    keepCentre.current = null;
    el.scrollLeft = c.x * el.scrollWidth - el.clientWidth / 2;
    el.scrollTop = c.y * el.scrollHeight - el.clientHeight / 2;
  }, [zoom, ready, centreRef]);
  const free = useMemo(() => new Set(places.map((p) => p.place_id)), [places]);
  const long: Record<Unavailable, string> = {
    day_only: t`nur für Tagesgäste`,
    overnight_only: t`nur für Übernachtungen`,
    too_short: t`zu kurz für Ihr Boot`,
    too_narrow: t`zu schmal für Ihr Boot`,
    taken: t`belegt`,
  };
  const short: Record<Unavailable, string> = {
    day_only: t`Tagesgast`,
    overnight_only: t`Nacht`,
    too_short: t`zu kurz`,
    too_narrow: t`zu schmal`,
    taken: t`belegt`,
  };
  const columnTypes = { electric: t`Stromsäule`, water: t`Wassersäule` } as const;

  const placed = useMemo(() => (plan.data?.berths ?? []).filter((b) => b.position), [plan.data]);
  // Cropped to what is drawn (the quay stays in view), so the berths are as large as the width allows.
  const box = useMemo(() => {
    const points = [...placed.map((b) => b.position!), ...(plan.data?.columns ?? []).map((c) => c.position)];
    if (points.length === 0) return { x: 0, y: 0, w: PLAN.width, h: PLAN.height };
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const x = Math.max(0, Math.min(...xs) - 50);
    const w = Math.min(PLAN.width, Math.max(...xs) + 50) - x;
    const h = Math.min(PLAN.height, Math.max(...ys) + 70);
    return { x, y: 0, w, h };
  }, [placed, plan.data]);

  // On a narrow screen the plan pans: start with the first choosable berth in view (unless the
  // plan comes back where it was left).
  const firstFree = placed.find((b) => free.has(b.id))?.id;
  useEffect(() => {
    const el = scroller.current;
    if (!el || !firstFree || centreRef.current) return;
    const target = el.querySelector<SVGGElement>(`[data-place-id="${selectedId ?? firstFree}"]`);
    if (!target) return;
    const r = target.getBoundingClientRect();
    const c = el.getBoundingClientRect();
    el.scrollLeft += r.left + r.width / 2 - (c.left + c.width / 2);
    // Only when the plan appears, not on every selection.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstFree, plan.data]);

  if (plan.isError)
    return (
      <FormAlert>
        <Trans>Der Hafenplan konnte nicht geladen werden. Bitte wählen Sie in der Liste.</Trans>
      </FormAlert>
    );
  if (plan.isPending)
    return (
      <p role="status" className="text-slate-700">
        <Trans>Der Hafenplan lädt …</Trans>
      </p>
    );
  if (placed.length === 0)
    return (
      <p className="text-slate-700">
        <Trans>Für diesen Hafen gibt es noch keinen Plan. Bitte wählen Sie in der Liste.</Trans>
      </p>
    );

  const choose = (b: PlanPlace) => {
    const reason = reasonOf(b, berth, free);
    if (reason) return setInfo(t`Liegeplatz ${b.name} ist nicht wählbar: ${long[reason]}.`);
    setInfo(null);
    onSelect(b.id);
  };
  const labelOf = (b: PlanPlace, reason: Unavailable | null) =>
    reason
      ? t`Liegeplatz ${b.name}: ${long[reason]}`
      : selectedId === b.id
        ? t`Liegeplatz ${b.name}: frei, ausgewählt`
        : t`Liegeplatz ${b.name}: frei`;

  const legend = (
    <ul aria-label={t`Legende`} className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
      <li className="flex items-center gap-1">
        <svg width="28" height="18" aria-hidden>
          <rect x="1" y="1" width="26" height="16" rx="3" fill="#ffffff" stroke="#15803d" strokeWidth="2" />
        </svg>
        <Trans>frei – wählbar</Trans>
      </li>
      <li className="flex items-center gap-1">
        <svg width="28" height="18" aria-hidden>
          <rect x="1" y="1" width="26" height="16" rx="3" fill="url(#plan-legend-off)" stroke="#94a3b8" />
          <defs>
            <pattern id="plan-legend-off" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" fill="#e2e8f0" />
              <rect width="1.5" height="6" fill="#94a3b8" />
            </pattern>
          </defs>
        </svg>
        <Trans>nicht wählbar</Trans>
      </li>
      <li className="flex items-center gap-1">
        <svg width="28" height="18" aria-hidden>
          <rect x="1" y="1" width="26" height="16" rx="3" fill="#0369a1" stroke="#0f172a" strokeWidth="2" />
        </svg>
        <Trans>ausgewählt</Trans>
      </li>
      <li className="flex items-center gap-1">
        <svg width="20" height="20" aria-hidden>
          <circle cx="10" cy="10" r="8" fill="#facc15" stroke="#713f12" />
          <text x="10" y="14" textAnchor="middle" fontSize="11" fontWeight="700">
            S
          </text>
        </svg>
        {columnTypes.electric}
      </li>
      <li className="flex items-center gap-1">
        <svg width="20" height="20" aria-hidden>
          <circle cx="10" cy="10" r="8" fill="#38bdf8" stroke="#075985" />
          <text x="10" y="14" textAnchor="middle" fontSize="11" fontWeight="700">
            W
          </text>
        </svg>
        {columnTypes.water}
      </li>
    </ul>
  );

  if (narrow) {
    return (
      <div className="flex flex-col gap-2">
        {legend}
        <PierView
          berths={placed}
          columns={plan.data.columns}
          selectedId={selectedId}
          firstFree={firstFree}
          label={t`Hafenplan: Liegeplatz wählen`}
          reasonOf={(b) => reasonOf(b, berth, free)}
          labelOf={labelOf}
          short={short}
          columnTypes={columnTypes}
          onChoose={choose}
        />
        <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-800">
          {info}
        </p>
      </div>
    );
  }
  const onKey = (b: PlanPlace) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(b);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      {legend}
      <div className="flex items-center gap-2 text-sm text-slate-700" role="group" aria-label={t`Zoom des Hafenplans`}>
        <button
          type="button"
          className="flex size-9 items-center justify-center rounded-md border border-slate-300 bg-white hover:bg-slate-50 disabled:opacity-40"
          aria-label={t`Plan verkleinern`}
          disabled={zoomStep === 0}
          onClick={() => zoomTo(zoomStep - 1)}
        >
          <Minus aria-hidden className="size-4" />
        </button>
        <span aria-live="polite" className="min-w-12 text-center tabular-nums" data-zoom={zoom}>
          {new Intl.NumberFormat(i18n.locale, { style: 'percent' }).format(zoom)}
        </span>
        <button
          type="button"
          className="flex size-9 items-center justify-center rounded-md border border-slate-300 bg-white hover:bg-slate-50 disabled:opacity-40"
          aria-label={t`Plan vergrößern`}
          disabled={zoomStep === ZOOMS.length - 1}
          onClick={() => zoomTo(zoomStep + 1)}
        >
          <Plus aria-hidden className="size-4" />
        </button>
      </div>
      <div
        ref={scroller}
        className="max-h-[70vh] overflow-auto rounded-lg border border-slate-200"
        data-testid="plan-scroller"
        onScroll={(e) => {
          centreRef.current = centreOf(e.currentTarget);
        }}
      >
        <HarbourPlan
          berths={placed}
          columns={plan.data.columns}
          label={t`Hafenplan: Liegeplatz wählen`}
          viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`}
          className="block h-auto"
          data={{ 'data-plan': 'booking' }}
          defs={
            <defs>
              <pattern id="plan-off" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="8" height="8" fill="#e2e8f0" />
                <rect width="2" height="8" fill="#94a3b8" />
              </pattern>
            </defs>
          }
          style={{ width: `${zoom * 100}%`, minWidth: `${Math.round(box.w * MIN_SCALE * zoom)}px` }}
        >
          {plan.data.columns.map((c) => {
            // Screen readers name each column (its type, and its own name unless that says it already).
            const type = columnTypes[c.type];
            const name = c.name.toLowerCase().includes(type.toLowerCase()) ? c.name : t`${type} (${c.name})`;
            return (
              <g key={c.id} role="img" aria-label={name} data-column={c.type} pointerEvents="none">
                <title>{name}</title>
                <ColumnMarker column={c} />
              </g>
            );
          })}
          {placed.map((b) => {
            const [x, y] = b.position!;
            const reason = reasonOf(b, berth, free);
            const selected = selectedId === b.id;
            const label = labelOf(b, reason);
            const fill = selected ? '#0369a1' : reason ? 'url(#plan-off)' : '#ffffff';
            const text = selected ? '#ffffff' : reason ? '#334155' : '#14532d';
            return (
              <g
                key={b.id}
                role="button"
                tabIndex={0}
                aria-label={label}
                aria-disabled={reason ? true : undefined}
                aria-pressed={reason ? undefined : selected}
                data-berth={b.name}
                data-place-id={b.id}
                data-reason={reason ?? undefined}
                className={`${reason ? 'cursor-not-allowed' : 'cursor-pointer'} outline-none [&:focus-visible>.plan-focus]:opacity-100`}
                onClick={() => choose(b)}
                onKeyDown={onKey(b)}
              >
                <title>{label}</title>
                <rect x={x - HIT.w / 2} y={y - HIT.h / 2} width={HIT.w} height={HIT.h} fill="transparent" />
                <rect
                  data-tile
                  x={x - BERTH.w / 2}
                  y={y - BERTH.h / 2}
                  width={BERTH.w}
                  height={BERTH.h}
                  rx="4"
                  fill={fill}
                  stroke={selected ? '#0f172a' : reason ? '#94a3b8' : '#15803d'}
                  strokeWidth={selected || !reason ? 2.5 : 1}
                />
                <rect
                  className="plan-focus"
                  x={x - BERTH.w / 2 - 3}
                  y={y - BERTH.h / 2 - 3}
                  width={BERTH.w + 6}
                  height={BERTH.h + 6}
                  rx="6"
                  fill="none"
                  stroke="#0f172a"
                  strokeWidth="3"
                  opacity="0"
                />
                <text
                  x={x}
                  y={y - 2}
                  textAnchor="middle"
                  fontSize="12"
                  fontWeight="700"
                  fill={text}
                  paintOrder="stroke"
                  stroke={selected ? 'none' : '#ffffff'}
                  strokeWidth="2"
                  aria-hidden
                >
                  {b.name}
                </text>
                <text
                  x={x}
                  y={y + 11}
                  textAnchor="middle"
                  fontSize="9"
                  fill={text}
                  paintOrder="stroke"
                  stroke={selected ? 'none' : '#ffffff'}
                  strokeWidth="2"
                  aria-hidden
                >
                  {reason ? short[reason] : t`frei`}
                </text>
              </g>
            );
          })}
        </HarbourPlan>
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-800">
        {info}
      </p>
    </div>
  );
}

interface PierRow {
  y: number;
  left: PlanPlace[];
  right: PlanPlace[];
  columns: PlanColumn[];
}

/** The berths of each pier in rows from the quay outwards (left and right of the pier), its columns in the row nearest them. */
function piersWithRows(berths: readonly PlanPlace[], columns: readonly PlanColumn[]) {
  const byPier = new Map<string, PlanPlace[]>();
  for (const b of berths) byPier.set(b.pier ?? '', [...(byPier.get(b.pier ?? '') ?? []), b]);
  return [...byPier]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => {
      const x = list.reduce((sum, b) => sum + b.position![0], 0) / list.length;
      const rows: PierRow[] = [];
      for (const b of [...list].sort((p, q) => p.position![1] - q.position![1] || p.position![0] - q.position![0])) {
        const [bx, by] = b.position!;
        let row = rows.find((r) => Math.abs(r.y - by) < BERTH.h / 2 && !(bx < x ? r.left : r.right).length);
        if (!row) rows.push((row = { y: by, left: [], right: [], columns: [] }));
        (bx < x ? row.left : row.right).push(b);
      }
      if (rows.length > 0) {
        for (const c of columns) {
          if (Math.abs(c.position[0] - x) > 36) continue;
          const nearest = rows.reduce((best, r) => (Math.abs(r.y - c.position[1]) < Math.abs(best.y - c.position[1]) ? r : best));
          nearest.columns.push(c);
        }
      }
      return { name, rows, berths: list };
    });
}

/**
 * The plan on a phone (issue 40, item 7): the whole drawing at 390 px made its labels 7 px high
 * and hid the outer piers, so one pier at a time, chosen above; its berths as buttons left and
 * right of the pier in their order from the quay, the pier's columns in the pier's own strip
 * (never over a berth). The same berths, reasons and choice as the drawing.
 */
function PierView({
  berths,
  columns,
  selectedId,
  firstFree,
  label,
  reasonOf,
  labelOf,
  short,
  columnTypes,
  onChoose,
}: {
  berths: readonly PlanPlace[];
  columns: readonly PlanColumn[];
  selectedId: string | null;
  firstFree: string | undefined;
  label: string;
  reasonOf: (b: PlanPlace) => Unavailable | null;
  labelOf: (b: PlanPlace, reason: Unavailable | null) => string;
  short: Record<Unavailable, string>;
  columnTypes: Record<PlanColumn['type'], string>;
  onChoose: (b: PlanPlace) => void;
}) {
  const { t } = useLingui();
  const piers = useMemo(() => piersWithRows(berths, columns), [berths, columns]);
  const pierOf = (id: string | null | undefined) => berths.find((b) => b.id === id)?.pier ?? undefined;
  const [chosen, setChosen] = useState<string | undefined>(() => pierOf(selectedId) ?? pierOf(firstFree) ?? piers[0]?.name);
  const pier = piers.find((p) => p.name === chosen) ?? piers[0]!;
  const pierName = (name: string) => (name ? t`Steg ${name}` : t`Weitere`);
  const tile = (b: PlanPlace) => {
    const reason = reasonOf(b);
    const selected = selectedId === b.id;
    const text = labelOf(b, reason);
    return (
      <button
        key={b.id}
        type="button"
        data-berth={b.name}
        data-place-id={b.id}
        data-reason={reason ?? undefined}
        aria-label={text}
        title={text}
        aria-disabled={reason ? true : undefined}
        aria-pressed={reason ? undefined : selected}
        onClick={() => onChoose(b)}
        className={`flex min-h-14 w-full flex-col items-start justify-center rounded-md border-2 px-2 py-1 text-left focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${
          selected
            ? 'border-slate-900 bg-sky-700 text-white'
            : reason
              ? 'cursor-not-allowed border-slate-300 bg-slate-100 text-slate-700'
              : 'border-green-700 bg-white text-green-900'
        }`}
      >
        <span className="text-base font-bold leading-tight">{b.name}</span>
        <span className="text-sm leading-tight">{reason ? short[reason] : t`frei`}</span>
      </button>
    );
  };
  return (
    <div role="group" aria-label={label} data-plan="booking-piers" className="flex flex-col gap-3">
      <div
        role="group"
        aria-label={t`Steg wählen`}
        className="grid gap-1.5"
        style={{ gridTemplateColumns: `repeat(${Math.min(piers.length, 5)}, minmax(0, 1fr))` }}
      >
        {piers.map((p) => {
          const freeCount = p.berths.filter((b) => !reasonOf(b)).length;
          return (
            <button
              key={p.name}
              type="button"
              aria-pressed={p.name === pier.name}
              data-pier-tab={p.name}
              onClick={() => setChosen(p.name)}
              className={`flex min-h-12 flex-col items-center justify-center rounded-md border px-1 py-1 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${p.name === pier.name ? 'border-sky-800 bg-sky-800 text-white' : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-50'}`}
            >
              <span className="font-semibold">{pierName(p.name)}</span>
              <span className="text-xs">{t`${freeCount} frei`}</span>
            </button>
          );
        })}
      </div>
      <section aria-label={pierName(pier.name)} data-pier-view={pier.name} className="rounded-lg border border-slate-200 bg-sky-100 p-2">
        <p className="mb-2 rounded bg-stone-300 px-2 py-1 text-sm text-stone-800">{t`Kai`}</p>
        <ul className="flex flex-col" aria-label={t`Liegeplätze an ${pierName(pier.name)}`}>
          {pier.rows.map((r) => (
            <li key={r.y} className="grid grid-cols-[minmax(0,1fr)_2.5rem_minmax(0,1fr)] gap-x-2 py-1">
              <div className="flex flex-col gap-1">{r.left.map(tile)}</div>
              <div className="flex flex-col items-center justify-center gap-1 self-stretch bg-stone-400/70">
                {r.columns.map((c) => {
                  const type = columnTypes[c.type];
                  const name = c.name.toLowerCase().includes(type.toLowerCase()) ? c.name : t`${type} (${c.name})`;
                  return (
                    <span
                      key={c.id}
                      role="img"
                      aria-label={name}
                      title={name}
                      data-column={c.type}
                      className={`flex size-7 items-center justify-center rounded-full border text-xs font-bold text-slate-900 ${c.type === 'electric' ? 'border-yellow-900 bg-yellow-400' : 'border-sky-900 bg-sky-400'}`}
                    >
                      {c.type === 'electric' ? 'S' : 'W'}
                    </span>
                  );
                })}
              </div>
              <div className="flex flex-col gap-1">{r.right.map(tile)}</div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
