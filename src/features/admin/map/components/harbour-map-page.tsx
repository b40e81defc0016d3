import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button, buttonVariants } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { useCalendarRealtime } from '@/features/harbour/shared';
import { identityQueryOptions, isAdmin } from '@/lib/auth';
import { formatSize } from '@/lib/numbers';
import { berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import {
  type Column,
  type ColumnSaveError,
  ColumnForm,
  type ColumnInput,
  columnDraft,
  useColumnForm,
  useColumnSaveMessages,
  useColumnTypeLabels,
} from '@/features/admin/additional-places';
import { BERTH, ColumnMarker, HarbourPlan, PLAN } from '@/features/booking';
import { mapQueryOptions, useSaveMapColumn, type BerthState, type MapBerth } from '@/features/admin/map/api/map';
import { FormAlert } from '@/components/form-alert';
import { refusalOf } from '@/lib/refused';

/** Fill and pattern per state (never colour alone); each berth also carries a text label. */
const FILL: Record<BerthState, string> = {
  free: '#ffffff',
  reservation: 'url(#map-reservation)',
  rent: '#16a34a',
  maintenance: 'url(#map-maintenance)',
  long_term: 'url(#map-long-term)',
};
const TEXT: Record<BerthState, string> = {
  free: '#0f172a',
  reservation: '#78350f',
  rent: '#ffffff',
  maintenance: '#0f172a',
  long_term: '#1e3a8a',
};

function useStateLabels() {
  const { t } = useLingui();
  const long: Record<BerthState, string> = {
    free: t`frei`,
    reservation: t`reserviert`,
    rent: t`vermietet`,
    maintenance: t`Wartung`,
    long_term: t`Langzeitlieger`,
  };
  const short: Record<BerthState, string> = {
    free: t`frei`,
    reservation: t`Res.`,
    rent: t`Miete`,
    maintenance: t`Wart.`,
    long_term: t`Dauer`,
  };
  return { long, short };
}

function Patterns() {
  return (
    <defs>
      <pattern id="map-reservation" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="8" height="8" fill="#fde68a" />
        <rect width="2" height="8" fill="#b45309" opacity=".45" />
      </pattern>
      <pattern id="map-maintenance" width="7" height="7" patternUnits="userSpaceOnUse">
        <rect width="7" height="7" fill="#e2e8f0" />
        <path d="M0 0L7 7M7 0L0 7" stroke="#334155" strokeWidth="1" opacity=".55" />
      </pattern>
      <pattern id="map-long-term" width="6" height="6" patternUnits="userSpaceOnUse">
        <rect width="6" height="6" fill="#bfdbfe" />
        <circle cx="3" cy="3" r="1.4" fill="#1e40af" opacity=".6" />
      </pattern>
    </defs>
  );
}

/** The harbour plan (1000 x 600) drawn from the data: piers, berths by today's state, columns. Staff and admins. */
export function HarbourMapPage() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const today = berlinToday();
  const live = useCalendarRealtime();
  const { data, error, isPending } = useQuery({ ...mapQueryOptions(today), refetchInterval: 60_000 });
  const identity = useQuery(identityQueryOptions);
  const admin = isAdmin(identity.data);
  const labels = useStateLabels();
  const types = useColumnTypeLabels();
  const saveMessages = useColumnSaveMessages();
  const svgRef = useRef<SVGSVGElement>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [columnId, setColumnId] = useState<string>('');
  const form = useColumnForm(columnDraft(null));
  const [placing, setPlacing] = useState(false);
  const saving = useSaveMapColumn(today);
  const saveError = refusalOf<ColumnSaveError>(saving.error);

  const berth = data?.berths.find((b) => b.id === selected);
  const unplaced = (data?.berths ?? []).filter((b) => !b.position);

  const pickColumn = (id: string) => {
    setColumnId(id);
    saving.reset();
    form.reset(columnDraft(data?.columns.find((c) => c.id === id) ?? null));
  };

  const onPlanClick = (e: MouseEvent<SVGSVGElement>) => {
    if (!placing || !svgRef.current) return;
    const ctm = svgRef.current.getScreenCTM();
    if (!ctm) return;
    const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    const x = Math.round(Math.min(PLAN.width, Math.max(0, point.x)));
    const y = Math.round(Math.min(PLAN.height, Math.max(0, point.y)));
    const validate = form.formState.isSubmitted;
    form.setValue('x', String(x), { shouldValidate: validate });
    form.setValue('y', String(y), { shouldValidate: validate });
    setPlacing(false);
  };

  const saveDraft = (input: ColumnInput) => {
    saving.mutate({ input, id: columnId || undefined }, { onSuccess: (savedId) => setColumnId(savedId) });
  };

  const activate = (id: string) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setSelected(id);
    }
  };

  const describe = (b: MapBerth) => `${b.name}: ${labels.long[b.state]}`;
  const [rawX, rawY] = useWatch({ control: form.control, name: ['x', 'y'] });
  const draftX = Number(rawX.replace(',', '.'));
  const draftY = Number(rawY.replace(',', '.'));
  const showMarker = admin && rawX !== '' && rawY !== '' && Number.isFinite(draftX) && Number.isFinite(draftY);

  return (
    <Page
      title={t`Hafenplan`}
      lead={<Trans>Liegeplätze mit ihrem Stand heute ({formatDay(today, locale)}) und die Strom- und Wassersäulen.</Trans>}
    >
      <span className="text-sm text-slate-600" data-live={live} role="status">
        {live === 'live' ? t`Live` : live === 'connecting' ? t`Verbinde…` : t`Offline – Änderungen erscheinen beim Neuladen`}
      </span>
      <ul aria-label={t`Legende`} className="flex flex-wrap gap-3 text-sm">
        {(Object.keys(FILL) as BerthState[]).map((s) => (
          <li key={s} className="flex items-center gap-1">
            <svg width="34" height="20" aria-hidden>
              <Patterns />
              <rect x="1" y="1" width="32" height="18" rx="3" fill={FILL[s]} stroke="#475569" />
            </svg>
            {labels.long[s]}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <svg width="20" height="20" aria-hidden>
            <circle cx="10" cy="10" r="8" fill="#facc15" stroke="#713f12" />
            <text x="10" y="14" textAnchor="middle" fontSize="11" fontWeight="700">
              S
            </text>
          </svg>
          {types.electric}
        </li>
        <li className="flex items-center gap-1">
          <svg width="20" height="20" aria-hidden>
            <circle cx="10" cy="10" r="8" fill="#38bdf8" stroke="#075985" />
            <text x="10" y="14" textAnchor="middle" fontSize="11" fontWeight="700">
              W
            </text>
          </svg>
          {types.water}
        </li>
      </ul>

      {error ? (
        <FormAlert>
          <Trans>Der Hafenplan konnte nicht geladen werden.</Trans>
        </FormAlert>
      ) : isPending ? (
        <p>
          <Trans>Lädt…</Trans>
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200">
          <HarbourPlan
            svgRef={svgRef}
            berths={data?.berths ?? []}
            columns={data?.columns ?? []}
            label={t`Hafenplan`}
            className={`block min-w-[720px] w-full ${placing ? 'cursor-crosshair' : ''}`}
            data={{ 'data-placing': placing }}
            onClick={onPlanClick}
            defs={<Patterns />}
          >
            {(data?.berths ?? [])
              .filter((b) => b.position)
              .map((b) => {
                const [x, y] = b.position!;
                return (
                  <g
                    key={b.id}
                    role="button"
                    tabIndex={0}
                    aria-label={describe(b)}
                    aria-pressed={selected === b.id}
                    data-berth={b.name}
                    data-state={b.state}
                    className="cursor-pointer focus:outline-none [&:focus>rect]:stroke-[3]"
                    onClick={(e) => {
                      if (placing) return;
                      e.stopPropagation();
                      setSelected(b.id);
                    }}
                    onKeyDown={activate(b.id)}
                  >
                    <title>{describe(b)}</title>
                    <rect
                      data-tile
                      x={x - BERTH.w / 2}
                      y={y - BERTH.h / 2}
                      width={BERTH.w}
                      height={BERTH.h}
                      rx="4"
                      fill={FILL[b.state]}
                      stroke={selected === b.id ? '#0f172a' : '#475569'}
                      strokeWidth={selected === b.id ? 3 : 1}
                    />
                    <text
                      x={x}
                      y={y - 2}
                      textAnchor="middle"
                      fontSize="11"
                      fontWeight="700"
                      fill={TEXT[b.state]}
                      paintOrder="stroke"
                      stroke={b.state === 'rent' ? 'none' : '#ffffff'}
                      strokeWidth="2"
                    >
                      {b.name}
                    </text>
                    <text
                      x={x}
                      y={y + 11}
                      textAnchor="middle"
                      fontSize="9"
                      fill={TEXT[b.state]}
                      paintOrder="stroke"
                      stroke={b.state === 'rent' ? 'none' : '#ffffff'}
                      strokeWidth="2"
                    >
                      {labels.short[b.state]}
                    </text>
                  </g>
                );
              })}
            {(data?.columns ?? []).map((c: Column) => (
              <g
                key={c.id}
                role={admin ? 'button' : 'img'}
                tabIndex={admin ? 0 : undefined}
                aria-label={`${types[c.type]} ${c.name}`}
                data-column={c.name}
                data-x={c.position[0]}
                data-y={c.position[1]}
                className={admin ? 'cursor-pointer' : undefined}
                onClick={(e) => {
                  if (!admin || placing) return;
                  e.stopPropagation();
                  pickColumn(c.id);
                }}
                onKeyDown={(e) => {
                  if (admin && (e.key === 'Enter' || e.key === ' ')) {
                    e.preventDefault();
                    pickColumn(c.id);
                  }
                }}
              >
                <title>{`${types[c.type]} ${c.name}`}</title>
                <ColumnMarker column={c} selected={columnId === c.id} />
              </g>
            ))}
            {showMarker && (
              <g aria-hidden pointerEvents="none">
                <circle cx={draftX} cy={draftY} r="14" fill="none" stroke="#dc2626" strokeWidth="2" strokeDasharray="4 3" />
                <path
                  d={`M${draftX - 20} ${draftY}H${draftX + 20}M${draftX} ${draftY - 20}V${draftY + 20}`}
                  stroke="#dc2626"
                  strokeWidth="1.5"
                />
              </g>
            )}
          </HarbourPlan>
        </div>
      )}

      {unplaced.length > 0 && (
        <p className="text-sm text-slate-600">
          <Trans>Ohne Position auf dem Plan: {unplaced.map((b) => b.name).join(', ')}</Trans>
        </p>
      )}

      {/* A click on a berth opens it (issue 40, item 7): a dialog in view wherever the plan was
          scrolled, with today's state and the way to the berth's page. */}
      <Dialog open={!!berth} onOpenChange={(open) => !open && setSelected(null)}>
        {berth && (
          <DialogContent data-testid="map-berth">
            <DialogHeader>
              <DialogTitle>
                <Trans>Liegeplatz {berth.name}</Trans>
              </DialogTitle>
              <DialogDescription>
                <Trans>Stand heute: {labels.long[berth.state]}</Trans> · {formatSize(berth.length, berth.width, i18n.locale)}
                {berth.one_day ? ` · ${t`Tagesliegeplatz`}` : ''}
              </DialogDescription>
            </DialogHeader>
            {berth.entries.length > 0 && (
              <ul className="grid gap-1 text-sm">
                {berth.entries.map((e) => (
                  <li key={e.id}>
                    {[e.guest, e.boat_name, e.note].filter(Boolean).join(' · ')}{' '}
                    <span className="text-slate-600">
                      ({formatBerlinDateTime(e.starts_at, locale)} – {e.ends_at ? formatBerlinDateTime(e.ends_at, locale) : t`unbefristet`})
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {admin && (
              <DialogFooter>
                <Link
                  to="/{-$locale}/account/admin/places/$id/calendar"
                  params={{ id: berth.id }}
                  className={buttonVariants({ variant: 'outline' })}
                >
                  <Trans>Kalender</Trans>
                </Link>
                <Link to="/{-$locale}/account/admin/places/$id/edit" params={{ id: berth.id }} className={buttonVariants()}>
                  <Trans>Liegeplatz bearbeiten</Trans>
                </Link>
              </DialogFooter>
            )}
          </DialogContent>
        )}
      </Dialog>

      {admin && data && (
        <section aria-label={t`Säule platzieren`} className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3">
          <h2 className="text-lg font-semibold">
            <Trans>Säule platzieren</Trans>
          </h2>
          <div className="grid gap-1 sm:max-w-sm">
            <Label htmlFor="map-column">
              <Trans>Säule</Trans>
            </Label>
            <select
              id="map-column"
              className="h-10 rounded-md border border-slate-300 bg-white px-2"
              value={columnId}
              onChange={(e) => pickColumn(e.target.value)}
            >
              <option value="">{t`Neue Säule`}</option>
              {data.columns.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <ColumnForm form={form} onSubmit={saveDraft} label={t`Säule auf dem Plan`}>
            <Button type="button" variant="outline" aria-pressed={placing} onClick={() => setPlacing((p) => !p)}>
              {placing ? <Trans>Jetzt auf den Plan klicken…</Trans> : <Trans>Position auf dem Plan wählen</Trans>}
            </Button>
            <Button type="submit" disabled={saving.isPending}>
              <Trans>Säule speichern</Trans>
            </Button>
            {saving.isSuccess && (
              <p role="status" className="text-sm text-green-700">
                <Trans>Säule gespeichert.</Trans>
              </p>
            )}
            {saveError && <FormAlert className="text-sm">{saveMessages[saveError]}</FormAlert>}
          </ColumnForm>
        </section>
      )}
    </Page>
  );
}
