import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type KeyboardSensorProps,
  type Modifier,
} from '@dnd-kit/core';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useLingui } from '@lingui/react/macro';
import { addDaysIso, berlinDay, formatDay } from '@/lib/dates';
import type { CalendarData, CalendarEntry } from '@/features/harbour/calendar/api/calendar';
import { verdictShort, type Verdict, type Verdicts } from '@/features/harbour/calendar/api/move-precheck';
import {
  barSpan,
  barVisible,
  readableSpans,
  selectionRange,
  shiftSpan,
  targetColumns,
  targetRow,
  type BarSpan,
} from '@/features/harbour/calendar/api/timeline-layout';

export type Kind = 'reservation' | 'rent' | 'maintenance' | 'blocked' | 'long_term';
export const kindOf = (e: CalendarEntry): Kind =>
  e.type === 'service' ? (e.block_reason === 'reserved' ? 'blocked' : 'maintenance') : e.type;

/** Colour AND pattern per kind (never colour alone); every bar also starts with its kind as text. */
export const KIND_STYLE: Record<Kind, CSSProperties> = {
  reservation: {
    backgroundColor: '#fde68a',
    backgroundImage: 'repeating-linear-gradient(45deg, rgba(146,64,14,.35) 0 2px, transparent 2px 8px)',
    color: '#78350f',
  },
  rent: { backgroundColor: '#15803d', color: '#fff' },
  maintenance: {
    backgroundColor: '#e2e8f0',
    backgroundImage:
      'repeating-linear-gradient(45deg, rgba(51,65,85,.45) 0 2px, transparent 2px 7px), repeating-linear-gradient(-45deg, rgba(51,65,85,.45) 0 2px, transparent 2px 7px)',
    color: '#0f172a',
  },
  blocked: {
    backgroundColor: '#fecaca',
    backgroundImage: 'repeating-linear-gradient(90deg, rgba(153,27,27,.35) 0 2px, transparent 2px 6px)',
    color: '#7f1d1d',
  },
  long_term: {
    backgroundColor: '#bfdbfe',
    backgroundImage: 'radial-gradient(rgba(30,64,175,.5) 1.5px, transparent 1.5px)',
    backgroundSize: '6px 6px',
    color: '#1e3a8a',
  },
};

export function useKindLabels() {
  const { t } = useLingui();
  // One object per language: the timeline hands it to every bar (memoised on it).
  return useMemo(() => {
    const long: Record<Kind, string> = {
      reservation: t`Reservierung`,
      rent: t`Vermietet (eingecheckt)`,
      maintenance: t`Wartung`,
      blocked: t`Gesperrt`,
      long_term: t`Langzeitliegeplatz`,
    };
    const short: Record<Kind, string> = {
      reservation: t`Res.`,
      rent: t`Miete`,
      maintenance: t`Wart.`,
      blocked: t`Gesp.`,
      long_term: t`Dauer`,
    };
    return { long, short };
  }, [t]);
}

export const ROW_H = 40;
const HEADER_H = 40;
/** The narrowest day column per view; wider screens stretch the columns to the full width. */
const MIN_COL = { 1: 120, 7: 72, 30: 36 } as Record<number, number>;

type Place = CalendarData['places'][number];
type PlacedBar = { entry: CalendarEntry; span: BarSpan };

/** The harbour status of a day the gauge forecast (or a staff override) says is not simply open (docs/adr/0053). */
export type HarbourBand = 'restricted' | 'closed';
/** The closure band over a day: a pattern as well as a colour (never colour alone). */
export const HARBOUR_BAND_STYLE: Record<HarbourBand, CSSProperties> = {
  closed: { backgroundImage: 'repeating-linear-gradient(-45deg, rgba(220,38,38,.22) 0 6px, transparent 6px 12px)' },
  restricted: { backgroundImage: 'repeating-linear-gradient(-45deg, rgba(245,158,11,.2) 0 3px, transparent 3px 12px)' },
};
const HARBOUR_BAND_STRIPE: Record<HarbourBand, string> = { closed: 'bg-red-600', restricted: 'bg-amber-500' };

/** A move of a stay the page is asking about or running: drawn on its new berth and days until it settles. */
export interface PendingMove {
  entry: CalendarEntry;
  toPlace: Place;
  /** Whole days the stay is shifted by (0: same dates, another berth). */
  days: number;
  /** Set when only the departure moves (the bar's end dragged, or Shift+arrow): whole days. */
  endDays?: number;
}

/** Only bookings move (the database refuses what may not: order_not_movable, 23P01, fit). */
const movable = (e: CalendarEntry) => !!e.order_id && (e.type === 'reservation' || e.type === 'rent');

/**
 * Date texts of bars and header cells, each computed once: date-fns' format and TZDate (Intl
 * underneath) cost tens of microseconds a call, and a month draws ~180 bars with two dates each
 * on every mount (scrolling mounts new rows every frame). Days and instants repeat across bars.
 */
const textCache = new Map<string, string>();
function cached(key: string, make: () => string): string {
  let text = textCache.get(key);
  if (text === undefined) {
    if (textCache.size > 20_000) textCache.clear();
    text = make();
    textCache.set(key, text);
  }
  return text;
}
const dayLabel = (day: string, locale: string) => cached(`d${locale}${day}`, () => formatDay(day, locale));
const berlinDayOf = (instant: string, minusMs = 0) =>
  cached(`b${minusMs}${instant}`, () => berlinDay(new Date(Date.parse(instant) - minusMs)));

function useWidth(ref: React.RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** A dragged bar snaps sideways to whole days (a column each); up and down it follows the pointer. */
const snapToDays =
  (colW: number): Modifier =>
  ({ transform }) => ({ ...transform, x: Math.round(transform.x / colW) * colW });

/**
 * The keyboard equivalent of dragging: arrow up/down move a picked-up bar one berth, left/right
 * one day (a column).
 */
const byRowAndDay =
  (colW: number): KeyboardCoordinateGetter =>
  (event, { currentCoordinates }) => {
    if (event.code === 'ArrowDown') return { ...currentCoordinates, y: currentCoordinates.y + ROW_H };
    if (event.code === 'ArrowUp') return { ...currentCoordinates, y: currentCoordinates.y - ROW_H };
    if (event.code === 'ArrowRight') return { ...currentCoordinates, x: currentCoordinates.x + colW };
    if (event.code === 'ArrowLeft') return { ...currentCoordinates, x: currentCoordinates.x - colW };
    return undefined;
  };

const KEYBOARD_CODES = { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] };
// The keys the picked-up bar answers to: the arrows and the ones that drop or cancel it.
const KEY_CODES = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', ...KEYBOARD_CODES.cancel, ...KEYBOARD_CODES.end]);
const LAST_CODES = new Set([...KEYBOARD_CODES.cancel, ...KEYBOARD_CODES.end]);

/**
 * dnd-kit's keyboard sensor, listening for the arrows from the key that picked the bar up on.
 * The original adds its keydown listener a task later (setTimeout, so that the picking Space,
 * still bubbling, does not drop the bar at once). A browser runs queued key presses before
 * timers: keys pressed while the page is busy (Space, then an arrow) reached the picked-up bar
 * before that listener, and the arrow was lost. This one listens at once, skips the picking
 * key's own event, and leaves the original's late listener nothing to do.
 *
 * Two more things the original gets wrong on a busy page. A key that comes before the bar's
 * rectangle is measured is computed from (0, 0): the bar seems outside the plan, so the sensor
 * scrolls the plan instead of moving the bar. And where it scrolls, it does not cancel the key,
 * so the browser scrolls the plan by an arrow's step as well: one press moved the bar two days.
 * Keys that come before the measurement wait for it (in order, one frame at a time), and the
 * sensor's keys never reach the browser's own scrolling.
 */
class PromptKeyboardSensor extends KeyboardSensor {
  constructor(props: KeyboardSensorProps) {
    super(props);
    // Private in the typings; the fields exist as the original's constructor sets them.
    const self = this as unknown as {
      handleKeyDown: (event: Event) => void;
      listeners: { add: (type: string, listener: (event: Event) => void) => void };
    };
    const handleKeyDown = self.handleKeyDown;
    self.handleKeyDown = () => undefined;
    const waiting: globalThis.KeyboardEvent[] = [];
    let frames = 0;
    const measured = () => props.context.current.collisionRect !== null;
    const flush = () => {
      // After a second the measurement is not coming (the bar left the plan): the keys go as they are.
      if (!measured() && frames++ < 60) return void requestAnimationFrame(flush);
      for (const event of waiting.splice(0)) {
        handleKeyDown(event);
        // Dropped or cancelled: the keys after it are no longer the bar's.
        if (LAST_CODES.has(event.code)) break;
      }
    };
    self.listeners.add('keydown', (event) => {
      if (event === props.event || !(event instanceof globalThis.KeyboardEvent)) return;
      if (KEY_CODES.has(event.code)) event.preventDefault();
      if (waiting.length === 0 && measured()) return handleKeyDown(event);
      waiting.push(event);
      if (waiting.length === 1) {
        frames = 0;
        requestAnimationFrame(flush);
      }
    });
  }
}

const POINTER_OPTIONS = { activationConstraint: { distance: 6 } };

export interface TimelineProps {
  data: CalendarData;
  places: Place[];
  today: string;
  pending: PendingMove | null;
  /** A bar dropped on another berth and/or shifted by whole days, or its end (departure) moved by endDays. */
  onMove: (entry: CalendarEntry, toPlace: Place, days: number, endDays?: number) => void;
  onSelect: (place: Place, fromDay: string, toDay: string) => void;
  onOpen: (entry: CalendarEntry) => void;
  /** Whether a row's occupations have arrived (the page loads them a block of berths at a time); all when absent. */
  loadedRow?: (row: number) => boolean;
  /** Told the rows in the DOM (first, last index) whenever they change, so the page loads their occupations. */
  onRowsShown?: (first: number, last: number) => void;
  /**
   * Told when a bar is picked up, each time the days it is shifted by change, and (null) when it
   * is put down: the page asks the database which berths can take the stay then (move_precheck).
   */
  onDragStay?: (drag: { entry: CalendarEntry; days: number } | null) => void;
  /** The berths' verdicts for the dragged stay on its current days, once the database answered. */
  verdicts?: Verdicts;
  /** Days the harbour is closed or restricted (harbour_status): a band over the day's column. */
  harbourDays?: ReadonlyMap<string, HarbourBand>;
}

/**
 * The booking timeline: one row per berth, one bar per occupation across its days, a sticky
 * berth column and date header. Rows and day columns are virtualised (only what is visible is in
 * the DOM). Bars of bookings drag to another berth (mouse or keyboard through dnd-kit); a drag
 * over empty cells (or the keyboard cursor with Shift+arrows and Enter) selects days of a berth.
 */
export function Timeline({
  data,
  places: livePlaces,
  today,
  pending,
  onMove,
  onSelect,
  onOpen,
  loadedRow,
  onRowsShown,
  onDragStay,
  verdicts,
  harbourDays,
}: TimelineProps) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const labels = useKindLabels();
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const narrow = width > 0 && width < 640;
  const berthW = narrow ? 72 : 120;
  const n = data.days.length;
  const colW = Math.max(MIN_COL[n] ?? 36, Math.floor((width - berthW - 2) / Math.max(n, 1)));
  const [activeRow, setActiveRow] = useState<number | null>(null);
  const [cursor, setCursor] = useState<{ row: number; col: number; anchor: number } | null>(null);
  const [drag, setDrag] = useState<{ row: number; a: number; b: number } | null>(null);
  // While a bar is dragged the rows stay the ones it was picked up among: a berth added, archived
  // or renamed meanwhile (a live refresh) would shift the rows under it, and the drop, which
  // counts rows, would land on another berth than the one shown and announced.
  const [dragPlaces, setDragPlaces] = useState<Place[] | null>(null);
  const places = dragPlaces ?? livePlaces;

  // Bars per berth, computed once per answer (binary search over the day starts).
  const bars = useMemo(() => {
    const map = new Map<string, PlacedBar[]>();
    for (const [placeId, list] of Object.entries(data.byPlace)) {
      const placed: PlacedBar[] = [];
      for (const entry of list) {
        const span = barSpan(Date.parse(entry.starts_at), entry.ends_at ? Date.parse(entry.ends_at) : null, data.dayStarts);
        if (span) placed.push({ entry, span });
      }
      map.set(placeId, placed);
    }
    return map;
  }, [data]);
  const pendingBar = useMemo(() => {
    if (!pending) return null;
    const endMs = pending.entry.ends_at ? Date.parse(pending.entry.ends_at) : null;
    const span = pending.endDays
      ? barSpan(Date.parse(pending.entry.starts_at), endMs === null ? null : endMs + pending.endDays * 86_400_000, data.dayStarts)
      : shiftSpan(Date.parse(pending.entry.starts_at), endMs, pending.days, data.dayStarts);
    return span ? { entry: pending.entry, span } : null;
  }, [pending, data.dayStarts]);

  // TanStack Virtual hands back fresh functions each render: the React Compiler skips this component (as data-table).
  // eslint-disable-next-line react-hooks/incompatible-library
  const rowV = useVirtualizer({
    count: places.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_H,
    paddingStart: HEADER_H,
    // The keyboard cursor scrolls its row into view below the sticky header, its day right of the berth column.
    scrollPaddingStart: HEADER_H,
    // Three rows (120 px, one fast scroll frame) above and below: each row more mounts ~7 bars on every month change.
    overscan: 3,
    // The row of a dragged bar stays mounted while it scrolls out of view (or the drag would end).
    rangeExtractor: (range: Range) => {
      const rows = defaultRangeExtractor(range);
      return activeRow !== null && !rows.includes(activeRow) ? [...rows, activeRow].sort((a, b) => a - b) : rows;
    },
  });
  const colV = useVirtualizer({
    horizontal: true,
    count: n,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => colW,
    paddingStart: berthW,
    scrollPaddingStart: berthW,
    overscan: 2,
  });
  useEffect(() => colV.measure(), [colV, colW, berthW]);
  // A drag cut short by leaving the page gives the page its scroll anchoring back.
  useEffect(
    () => () => {
      document.documentElement.style.removeProperty('overflow-anchor');
    },
    [],
  );

  const rows = rowV.getVirtualItems();
  const firstRow = rows[0]?.index ?? 0;
  const lastRow = rows.at(-1)?.index ?? 0;
  useEffect(() => onRowsShown?.(firstRow, lastRow), [onRowsShown, firstRow, lastRow]);
  const busy = !!loadedRow && rows.some((r) => !loadedRow(r.index));

  const cols = colV.getVirtualItems();
  const firstCol = cols[0]?.index ?? 0;
  const lastCol = cols.at(-1)?.index ?? n - 1;
  const totalW = berthW + n * colW;
  const todayCol = data.days.indexOf(today);

  // The options keep their identity between renders: dnd-kit memoises a sensor on its options
  // object, and a new one each render renewed its context and re-rendered every bar on every
  // scroll frame. They change only with the column width (a day's step).
  // The sensor scrolls at once, not smoothly (dnd-kit's default): when the next berth lies below
  // the middle of the screen it scrolls the page instead of moving the bar, and with a smooth
  // scroll the second of two arrows often left the bar over the berth before (the timeline spec's
  // keyboard check failed in about 2 of 5 runs on a busy machine; 9 of 9 passed scrolling at once).
  const keyboardOptions = useMemo(
    () => ({ coordinateGetter: byRowAndDay(colW), keyboardCodes: KEYBOARD_CODES, scrollBehavior: 'auto' as const }),
    [colW],
  );
  const sensors = useSensors(useSensor(PointerSensor, POINTER_OPTIONS), useSensor(PromptKeyboardSensor, keyboardOptions));
  const modifiers = useMemo(() => [snapToDays(colW)], [colW]);
  const rowOf = (entry: CalendarEntry) => places.findIndex((p) => p.id === entry.place_id);
  const dropAt = (id: string | number, delta: { x: number; y: number }) => {
    const entry = (data.byPlace[String(id).split(':')[0]!] ?? []).find((e) => e.id === String(id).split(':')[1]);
    if (!entry) return null;
    const origin = rowOf(entry);
    const days = targetColumns(delta.x, colW);
    return {
      entry,
      origin,
      target: targetRow(origin, delta.y, ROW_H, places.length),
      days,
      arrival: addDaysIso(berlinDay(entry.starts_at), days),
    };
  };
  // The drag's offset, for the screen reader's announcements (they get no delta).
  const lastDelta = useRef({ x: 0, y: 0 });
  // The days the dragged bar is shifted by, as last told to the page (it asks the database per shift).
  const dragDays = useRef<number | null>(null);
  // While a bar is dragged: the verdict of a berth it could land on (none for its own berth and days, or before the answer).
  const dragging = dragPlaces !== null;
  const verdictOf = (row: number, days: number, origin: number) => {
    const place = places[row];
    if (!place || !verdicts || (row === origin && days === 0)) return undefined;
    return verdicts.get(place.id);
  };
  const placeName = (row: number) => places[row]?.name ?? '';
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t`${String(active.data.current?.label ?? '')} aufgenommen. Pfeil hoch/runter wählt den Liegeplatz, Pfeil links/rechts verschiebt um einen Tag, Leertaste legt ab, Escape bricht ab.`,
    onDragMove: ({ active }) => {
      const d = dropAt(active.id, lastDelta.current);
      if (!d) return undefined;
      const v = verdictOf(d.target, d.days, d.origin);
      return v && v !== 'fits'
        ? t`Über Liegeplatz ${placeName(d.target)}, Anreise ${formatDay(d.arrival, locale)}: nicht möglich, ${verdictShort(v)}.`
        : t`Über Liegeplatz ${placeName(d.target)}, Anreise ${formatDay(d.arrival, locale)}.`;
    },
    onDragOver: () => undefined,
    onDragEnd: ({ active }) => {
      const d = dropAt(active.id, lastDelta.current);
      if (!d) return undefined;
      const v = verdictOf(d.target, d.days, d.origin);
      return v && v !== 'fits'
        ? t`Nicht abgelegt: Liegeplatz ${placeName(d.target)}, ${verdictShort(v)}.`
        : t`Auf Liegeplatz ${placeName(d.target)}, Anreise ${formatDay(d.arrival, locale)} abgelegt.`;
    },
    onDragCancel: () => t`Verschieben abgebrochen.`,
  };
  const tellDrag = (id: string | number, delta: { x: number; y: number }) => {
    const d = dropAt(id, delta);
    if (!d || dragDays.current === d.days) return;
    dragDays.current = d.days;
    onDragStay?.({ entry: d.entry, days: d.days });
  };
  const dragOver = () => {
    document.documentElement.style.removeProperty('overflow-anchor');
    dragDays.current = null;
    setActiveRow(null);
    setDragPlaces(null);
    onDragStay?.(null);
  };
  const end = (event: DragEndEvent) => {
    dragOver();
    const d = dropAt(event.active.id, event.delta);
    if (d && (d.target !== d.origin || d.days !== 0) && places[d.target]) onMove(d.entry, places[d.target]!, d.days);
  };

  // Drag over empty cells of one berth: pointer down, move, up.
  const colAt = (clientX: number, lane: HTMLElement) => (clientX - lane.getBoundingClientRect().left) / colW;
  const latest = {
    laneDown: (row: number, e: PointerEvent<HTMLDivElement>) => {
      if (e.button !== 0 || e.target !== e.currentTarget) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      const c = colAt(e.clientX, e.currentTarget);
      setDrag({ row, a: c, b: c });
    },
    laneMove: (e: PointerEvent<HTMLDivElement>) => {
      if (!drag) return;
      const b = colAt(e.clientX, e.currentTarget);
      setDrag((d) => (d ? { ...d, b } : d));
    },
    laneUp: (e: PointerEvent<HTMLDivElement>) => {
      if (!drag) return;
      const { from, to } = selectionRange(drag.a, colAt(e.clientX, e.currentTarget), n);
      const place = places[drag.row];
      setDrag(null);
      if (place) onSelect(place, data.days[from]!, data.days[to]!);
    },
    onOpen,
    // The bar's end dragged (or Shift+arrow): the departure moves, the berth and arrival stay.
    resize: (entry: CalendarEntry, endDays: number) =>
      onMove(entry, { id: entry.place_id, name: entry.place_name, pier: null }, 0, endDays),
  };
  // Rows and bars get handlers that never change (they call this render's): the memoised rows and
  // bars then re-render only when their own data changes, not when the page passes new callbacks.
  const latestRef = useRef(latest);
  useLayoutEffect(() => {
    latestRef.current = latest;
  });
  const rowEvents = useMemo<RowEvents>(
    () => ({
      laneDown: (row, e) => latestRef.current.laneDown(row, e),
      laneMove: (e) => latestRef.current.laneMove(e),
      laneUp: (e) => latestRef.current.laneUp(e),
      laneCancel: () => setDrag(null),
      open: (entry) => latestRef.current.onOpen(entry),
      resize: (entry, endDays) => latestRef.current.resize(entry, endDays),
    }),
    [],
  );

  // The keyboard cursor over the cells: arrows move, Shift+left/right widen, Enter selects.
  const moveCursor = (row: number, col: number, anchor: number) => {
    const r = Math.min(Math.max(row, 0), places.length - 1);
    const c = Math.min(Math.max(col, 0), n - 1);
    setCursor({ row: r, col: c, anchor: Math.min(Math.max(anchor, 0), n - 1) });
    rowV.scrollToIndex(r);
    colV.scrollToIndex(c);
  };
  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || places.length === 0) return;
    const c = cursor ?? { row: 0, col: Math.max(todayCol, 0), anchor: Math.max(todayCol, 0) };
    const step: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const s = step[e.key];
    if (s) {
      e.preventDefault();
      if (!cursor) return moveCursor(c.row, c.col, c.anchor);
      const col = c.col + s[1];
      moveCursor(c.row + s[0], col, e.shiftKey && s[0] === 0 ? c.anchor : col);
    } else if (e.key === 'Enter' && cursor) {
      e.preventDefault();
      const { from, to } = selectionRange(cursor.anchor, cursor.col, n);
      onSelect(places[cursor.row]!, data.days[from]!, data.days[to]!);
    } else if (e.key === 'Escape') {
      setCursor(null);
    }
  };
  const cursorText = (() => {
    if (!cursor) return '';
    const place = places[cursor.row];
    if (!place) return '';
    const { from, to } = selectionRange(cursor.anchor, cursor.col, n);
    const dayText =
      from === to ? dayLabel(data.days[from]!, locale) : `${dayLabel(data.days[from]!, locale)} – ${dayLabel(data.days[to]!, locale)}`;
    const taken = (bars.get(place.id) ?? []).filter((b) => b.span.end > from && b.span.start < to + 1);
    return taken.length
      ? t`${place.name}, ${dayText}: ${taken.map((b) => [labels.long[kindOf(b.entry)], b.entry.guest].filter(Boolean).join(' ')).join('; ')}`
      : t`${place.name}, ${dayText}: frei. Eingabetaste sperrt oder bucht.`;
  })();

  return (
    <DndContext
      sensors={sensors}
      modifiers={modifiers}
      // Auto-scroll near the edges only in the outer 10 % sideways (default 20 %): in a narrow plan a drag of a day or two must not scroll it.
      autoScroll={{ threshold: { x: 0.1, y: 0.2 } }}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: t`Leertaste nimmt die Buchung auf; Pfeil hoch/runter wählt den Liegeplatz, Pfeil links/rechts verschiebt die Tage, Leertaste legt ab, Escape bricht ab. Umschalt+Pfeil links/rechts ändert nur die Abreise. Eingabetaste zeigt die Details.`,
        },
      }}
      onDragStart={(e) => {
        // dnd-kit adds every scroll of the page or the plan during a drag to the bar's offset (so
        // a bar follows a scrolled pointer). The browser's scroll anchoring scrolls the page by
        // itself when something above the visible part changes height (a notice, the marks):
        // while a bar is dragged that moved it a berth or a day further than the key pressed.
        document.documentElement.style.setProperty('overflow-anchor', 'none');
        lastDelta.current = { x: 0, y: 0 };
        dragDays.current = null;
        const d = dropAt(e.active.id, lastDelta.current);
        setActiveRow(d ? d.origin : null);
        setDragPlaces(places);
        tellDrag(e.active.id, lastDelta.current);
      }}
      onDragMove={(e) => {
        lastDelta.current = e.delta;
        tellDrag(e.active.id, e.delta);
      }}
      onDragCancel={dragOver}
      onDragEnd={end}
    >
      <div
        ref={scrollRef}
        tabIndex={0}
        role="region"
        aria-label={t`Belegungsplan: Pfeiltasten bewegen die Auswahl, Umschalt+Pfeil links/rechts erweitert sie, Eingabetaste sperrt oder bucht`}
        aria-describedby="timeline-cursor"
        onKeyDown={keyDown}
        onBlur={(e) => {
          if (e.target === e.currentTarget) setCursor(null);
        }}
        className="relative h-[70vh] min-h-80 overflow-auto rounded-lg border border-slate-200 bg-white [overflow-anchor:none] focus-visible:outline-2 focus-visible:outline-sky-600"
        data-testid="timeline"
        data-day-count={n}
        data-from={data.days[0]}
        aria-busy={busy || undefined}
      >
        <div className="relative" style={{ width: totalW, height: rowV.getTotalSize() }}>
          {/* Date header: sticky at the top; its corner also sticks to the left. */}
          <div className="sticky top-0 z-20 border-b border-slate-200 bg-white" style={{ height: HEADER_H, width: totalW }}>
            <div
              className="sticky left-0 z-30 flex h-full items-center border-r border-slate-200 bg-white px-2 text-xs font-semibold"
              style={{ width: berthW }}
            >{t`Liegeplatz`}</div>
            {cols.map((c) => {
              const day = data.days[c.index]!;
              return (
                <div
                  key={day}
                  data-day={day}
                  aria-current={day === today ? 'date' : undefined}
                  className={`absolute top-0 flex h-full items-center justify-center overflow-hidden border-l border-slate-200 text-center text-xs leading-tight ${day === today ? 'bg-sky-100 font-semibold' : ''}`}
                  style={{ left: c.start, width: c.size }}
                >
                  {colW < 56 ? day.slice(8) : dayLabel(day, locale).replace(/ \d{4}$/, '')}
                  {harbourDays?.has(day) && (
                    <span
                      role="img"
                      aria-label={
                        harbourDays.get(day) === 'closed'
                          ? t`Hafen geschlossen am ${dayLabel(day, locale)}`
                          : t`Hafen eingeschränkt befahrbar am ${dayLabel(day, locale)}`
                      }
                      data-testid="harbour-band-label"
                      data-status={harbourDays.get(day)}
                      className={`absolute inset-x-0 bottom-0 h-1.5 ${HARBOUR_BAND_STRIPE[harbourDays.get(day)!]}`}
                    />
                  )}
                </div>
              );
            })}
          </div>
          {todayCol >= 0 && (
            <div
              aria-hidden
              className="absolute bg-sky-50"
              style={{ left: berthW + todayCol * colW, width: colW, top: HEADER_H, bottom: 0 }}
            />
          )}
          {harbourDays &&
            cols.map((c) => {
              const day = data.days[c.index]!;
              const band = harbourDays.get(day);
              return (
                band && (
                  <div
                    key={`band-${day}`}
                    aria-hidden
                    data-testid="harbour-band"
                    data-day={day}
                    data-status={band}
                    className="pointer-events-none absolute"
                    style={{ left: c.start, width: c.size, top: HEADER_H, bottom: 0, ...HARBOUR_BAND_STYLE[band] }}
                  />
                )
              );
            })}
          {rows.map((r) => {
            const place = places[r.index]!;
            const sel =
              drag?.row === r.index
                ? selectionRange(drag.a, drag.b, n)
                : cursor?.row === r.index
                  ? selectionRange(cursor.anchor, cursor.col, n)
                  : null;
            const verdict = dragging && activeRow !== null ? verdictOf(r.index, dragDays.current ?? 0, activeRow) : undefined;
            return (
              <Row
                key={place.id}
                place={place}
                index={r.index}
                top={r.start}
                totalW={totalW}
                berthW={berthW}
                colW={colW}
                days={data.days}
                list={bars.get(place.id)}
                firstCol={firstCol}
                lastCol={lastCol}
                pending={pending}
                pendingBar={pendingBar}
                loading={loadedRow ? !loadedRow(r.index) : false}
                selFrom={sel?.from ?? -1}
                selTo={sel?.to ?? -1}
                selByKeys={!!cursor && !drag}
                verdict={verdict}
                lifted={activeRow === r.index}
                labels={labels}
                events={rowEvents}
              />
            );
          })}
        </div>
        <p id="timeline-cursor" role="status" className="sr-only">
          {cursorText}
        </p>
      </div>
    </DndContext>
  );
}

interface RowEvents {
  laneDown: (row: number, e: PointerEvent<HTMLDivElement>) => void;
  laneMove: (e: PointerEvent<HTMLDivElement>) => void;
  laneUp: (e: PointerEvent<HTMLDivElement>) => void;
  laneCancel: () => void;
  open: (entry: CalendarEntry) => void;
  resize: (entry: CalendarEntry, endDays: number) => void;
}
type Labels = ReturnType<typeof useKindLabels>;

/**
 * One berth's row: memoised, so a scroll frame renders only the rows it mounts (and all rows only
 * when the visible day columns, the answer, the selection or a pending move change).
 */
const Row = memo(function Row({
  place,
  index,
  top,
  totalW,
  berthW,
  colW,
  days,
  list,
  firstCol,
  lastCol,
  pending,
  pendingBar,
  loading,
  selFrom,
  selTo,
  selByKeys,
  verdict,
  lifted,
  labels,
  events,
}: {
  place: Place;
  index: number;
  top: number;
  totalW: number;
  berthW: number;
  colW: number;
  days: string[];
  list: PlacedBar[] | undefined;
  firstCol: number;
  lastCol: number;
  pending: PendingMove | null;
  pendingBar: PlacedBar | null;
  loading: boolean;
  selFrom: number;
  selTo: number;
  selByKeys: boolean;
  verdict: Verdict | undefined;
  lifted: boolean;
  labels: Labels;
  events: RowEvents;
}) {
  let placed = (list ?? []).filter((b) => barVisible(b.span, firstCol, lastCol));
  if (pending && pendingBar) {
    placed = placed.filter((b) => b.entry.id !== pending.entry.id);
    if (pending.toPlace.id === place.id) placed = [...placed, pendingBar];
  }
  const shown = readableSpans(placed);
  const refused = !!verdict && verdict !== 'fits';
  return (
    <div
      data-place={place.id}
      data-place-name={place.name}
      data-verdict={verdict}
      className="absolute left-0 border-b border-slate-100"
      style={{ top: 0, transform: `translateY(${top}px)`, height: ROW_H, width: totalW, zIndex: lifted ? 5 : undefined }}
    >
      <div
        className={`sticky left-0 z-10 flex h-full flex-col justify-center overflow-hidden border-r border-slate-200 px-2 text-sm font-medium ${refused ? 'bg-red-50' : verdict === 'fits' ? 'bg-green-50' : 'bg-white'}`}
        style={{ width: berthW }}
        title={[place.pier ? `${place.name} (${place.pier})` : place.name, verdict && verdictShort(verdict)].filter(Boolean).join(': ')}
      >
        <span className="truncate leading-tight">{place.name}</span>
        {verdict && (
          <span
            data-verdict-text
            className={`truncate text-[11px] leading-tight font-semibold ${refused ? 'text-red-800' : 'text-green-800'}`}
          >
            {verdictShort(verdict)}
          </span>
        )}
      </div>
      <div
        className="absolute top-0 h-full cursor-cell touch-pan-y"
        data-lane
        data-loading={loading || undefined}
        style={{
          left: berthW,
          width: days.length * colW,
          backgroundImage: 'linear-gradient(to right, #e2e8f0 1px, transparent 1px)',
          backgroundSize: `${colW}px 100%`,
          backgroundColor: loading ? '#f1f5f9' : undefined,
        }}
        onPointerDown={(e) => events.laneDown(index, e)}
        onPointerMove={events.laneMove}
        onPointerUp={events.laneUp}
        onPointerCancel={events.laneCancel}
      >
        {selFrom >= 0 && (
          <div
            aria-hidden
            data-selection
            className={`pointer-events-none absolute top-0 h-full border-2 ${selByKeys ? 'border-sky-700' : 'border-sky-500 bg-sky-200/60'}`}
            style={{ left: selFrom * colW, width: (selTo - selFrom + 1) * colW }}
          />
        )}
        {placed.map((b, i) => (
          <Bar
            key={b.entry.id}
            bar={b}
            shownStart={shown[i]!.start}
            shownEnd={shown[i]!.end}
            colW={colW}
            days={days}
            pending={pending?.entry.id === b.entry.id}
            placeName={place.name}
            labels={labels}
            fromAbsence={fromHolderAbsence(b.entry, placed)}
            onOpen={events.open}
            onResize={events.resize}
          />
        ))}
        {refused && (
          // A berth that cannot take the dragged stay: hatched over its days (the reason stands in the berth column).
          <div
            aria-hidden
            data-refused
            className="pointer-events-none absolute inset-0 z-10"
            style={{
              backgroundColor: 'rgba(254,226,226,.55)',
              backgroundImage: 'repeating-linear-gradient(135deg, rgba(153,27,27,.28) 0 2px, transparent 2px 9px)',
            }}
          />
        )}
      </div>
    </div>
  );
});

/**
 * A guest's stay on a berth whose long-term holding it overlaps: the database lets such a stay
 * only from the holder's absence (issue 43, ADR 0054), so the timeline marks it.
 */
function fromHolderAbsence(entry: CalendarEntry, placed: PlacedBar[]): boolean {
  if (!entry.order_id || !entry.ends_at) return false;
  const [from, to] = [Date.parse(entry.starts_at), Date.parse(entry.ends_at)];
  return placed.some(
    ({ entry: e }) => e.type === 'long_term' && Date.parse(e.starts_at) < to && (e.ends_at === null || Date.parse(e.ends_at) >= from),
  );
}

const Bar = memo(function Bar({
  bar,
  shownStart,
  shownEnd,
  colW,
  days,
  pending,
  placeName,
  labels,
  fromAbsence = false,
  onOpen,
  onResize,
}: {
  bar: PlacedBar;
  fromAbsence?: boolean;
  shownStart: number;
  shownEnd: number;
  colW: number;
  days: string[];
  pending: boolean;
  placeName: string;
  labels: Labels;
  onOpen: (e: CalendarEntry) => void;
  onResize: (e: CalendarEntry, endDays: number) => void;
}) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const { entry, span } = bar;
  const kind = kindOf(entry);
  const canMove = movable(entry) && !pending;
  // Narrow bars lead with the guest (or boat): the kind is in their colour, pattern, tooltip and accessible name.
  const narrowBar = (shownEnd - shownStart) * colW < 90;
  const who = [entry.guest, entry.boat_name].filter(Boolean).join(' · ');
  // Narrow: the kind's abbreviation stays in the text but is not drawn, so the name comes first.
  const hideKind = narrowBar && who !== '';
  // A booking shows its departure day; a block or holding its last day.
  const until = entry.ends_at ? dayLabel(berlinDayOf(entry.ends_at, entry.order_id ? 0 : 1), locale) : t`unbefristet`;
  const label = `${[labels.long[kind], fromAbsence && t`aus der Abwesenheit des Langzeitliegers`, entry.guest, entry.boat_name, entry.note].filter(Boolean).join(' · ')} · ${t`Liegeplatz ${placeName}`}, ${dayLabel(berlinDayOf(entry.starts_at), locale)} – ${until}`;
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `${entry.place_id}:${entry.id}`,
    disabled: !canMove,
    data: { label },
  });
  // Dragging the end handle: the pointer's start and the snapped width change (whole days).
  const [resizeFrom, setResizeFrom] = useState<number | null>(null);
  const [resizeDx, setResizeDx] = useState(0);
  const left = shownStart * colW + 1;
  const w = Math.max((shownEnd - shownStart) * colW - 2 + targetColumns(resizeDx, colW) * colW, 6);
  const style: CSSProperties = {
    ...KIND_STYLE[kind],
    left,
    width: w,
    transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
    borderTopLeftRadius: span.clippedStart ? 0 : undefined,
    borderBottomLeftRadius: span.clippedStart ? 0 : undefined,
    borderTopRightRadius: span.clippedEnd ? 0 : undefined,
    borderBottomRightRadius: span.clippedEnd ? 0 : undefined,
  };
  return (
    <div
      ref={setNodeRef}
      // Only bookings are draggable; blocks and holdings are plain buttons (details), not "disabled draggables".
      {...(canMove ? attributes : {})}
      {...(canMove ? listeners : {})}
      role="button"
      tabIndex={0}
      aria-label={label}
      title={label}
      data-entry={entry.id}
      data-kind={kind}
      data-from-absence={fromAbsence || undefined}
      // The days shown that the bar touches (its arrival day through its departure day), for tests and tools.
      data-days={days.slice(Math.floor(span.start), Math.ceil(span.end)).join(' ')}
      data-pending={pending || undefined}
      onClick={() => onOpen(entry)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !isDragging) {
          e.preventDefault();
          onOpen(entry);
          return;
        }
        // Shift+arrow right/left: the departure a day later/earlier (the keyboard's way of dragging the end).
        if (canMove && !isDragging && e.shiftKey && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
          e.preventDefault();
          onResize(entry, e.key === 'ArrowRight' ? 1 : -1);
          return;
        }
        if (canMove) listeners?.onKeyDown?.(e);
      }}
      className={`absolute top-1 flex h-8 items-center overflow-hidden rounded-md border border-slate-400 text-xs font-semibold whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900 ${canMove ? 'cursor-grab touch-none' : 'cursor-pointer'} ${isDragging ? 'z-20 shadow-lg ring-2 ring-sky-600' : ''} ${pending ? 'opacity-70 ring-2 ring-sky-600' : ''}`}
      style={style}
    >
      <span className="mx-0.5 truncate rounded bg-white/85 px-1 text-slate-900">
        {span.clippedStart ? '◂ ' : ''}
        <span className={hideKind ? 'hidden' : undefined}>
          {fromAbsence && `${t`Abw.`} `}
          {labels.short[kind]}
          {who && ' · '}
        </span>
        {who}
      </span>
      {canMove && !span.clippedEnd && (
        <span
          aria-hidden
          data-resize
          className="absolute top-0 right-0 h-full w-2 cursor-ew-resize touch-none bg-slate-900/25"
          onPointerDown={(e) => {
            if (e.button !== 0) return;
            e.stopPropagation();
            e.currentTarget.setPointerCapture(e.pointerId);
            setResizeFrom(e.clientX);
            setResizeDx(0);
          }}
          onPointerMove={(e) => {
            if (resizeFrom !== null) setResizeDx(e.clientX - resizeFrom);
          }}
          onPointerUp={(e) => {
            if (resizeFrom === null) return;
            e.stopPropagation();
            const d = targetColumns(e.clientX - resizeFrom, colW);
            setResizeFrom(null);
            setResizeDx(0);
            if (d !== 0) onResize(entry, d);
          }}
          onPointerCancel={() => {
            setResizeFrom(null);
            setResizeDx(0);
          }}
          onClick={(e) => e.stopPropagation()}
        />
      )}
    </div>
  );
});
