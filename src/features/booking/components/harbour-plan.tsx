import { useMemo, type CSSProperties, type ReactNode, type Ref, type MouseEvent } from 'react';
import { useLingui } from '@lingui/react/macro';

/** The plan is 1000 x 600 units (the database checks positions against it). */
export const PLAN = { width: 1000, height: 600 };
/**
 * A berth's rectangle on the plan, centred on its position. Berths lie 28 units either side of
 * their pier's centre line: 42 wide, a berth's inner edge is 7 units from it, so a column marker
 * on the pier (radius MARKER_R) sits between the berths and never covers one (issue 40, item 7).
 */
export const BERTH = { w: 42, h: 32 };
/** A column marker's radius: less than the 7 units between a pier's centre line and its berths. */
export const MARKER_R = 6.5;

/** What the drawing needs of a berth and of a column (electricity or water). */
export interface PlanBerth {
  id: string;
  name: string;
  pier: string | null;
  position: number[] | [number, number] | null;
}
export interface PlanColumn {
  id: string;
  type: 'electric' | 'water';
  name: string;
  position: number[] | [number, number];
}

interface Pier {
  name: string;
  x: number;
  top: number;
  bottom: number;
}

/** The piers, drawn from their berths: one per pier name, at the mean x of its berths, from the quay to its last berth. */
export function piersOf(berths: readonly PlanBerth[]): Pier[] {
  const byPier = new Map<string, { xs: number[]; ys: number[] }>();
  for (const b of berths) {
    if (!b.position || !b.pier) continue;
    const p = byPier.get(b.pier) ?? { xs: [], ys: [] };
    p.xs.push(b.position[0]);
    p.ys.push(b.position[1]);
    byPier.set(b.pier, p);
  }
  return [...byPier].map(([name, p]) => ({
    name,
    x: p.xs.reduce((a, b) => a + b, 0) / p.xs.length,
    top: 60,
    bottom: Math.max(...p.ys) + BERTH.h,
  }));
}

/**
 * Where a pier's name goes: 18 units below the pier's end, or below the lowest column marker
 * (radius MARKER_R) that would overlap the name there ("Steg D" is about 50 units wide at size 14).
 */
function pierLabelY(pier: Pier, columns: readonly PlanColumn[]): number {
  const ends = columns
    .filter((c) => Math.abs(c.position[0] - pier.x) < 36 && c.position[1] > pier.bottom - 12 && c.position[1] < pier.bottom + 40)
    .map((c) => c.position[1] + MARKER_R);
  return Math.max(pier.bottom, ...ends) + 18;
}

/** A column's marker (S = electricity, W = water); the caller wraps it (the admin map makes it a button). */
export function ColumnMarker({ column, selected = false }: { column: PlanColumn; selected?: boolean }) {
  const [x, y] = column.position;
  const electric = column.type === 'electric';
  return (
    <>
      <circle
        cx={x}
        cy={y}
        r={MARKER_R}
        data-marker
        fill={electric ? '#facc15' : '#38bdf8'}
        stroke={selected ? '#0f172a' : electric ? '#713f12' : '#075985'}
        strokeWidth={selected ? 3 : 1.5}
      />
      <text x={x} y={y + 3.2} textAnchor="middle" fontSize="9" fontWeight="700" fill="#0f172a">
        {electric ? 'S' : 'W'}
      </text>
    </>
  );
}

/**
 * The harbour plan's drawing (quay, water, piers and their names), shared by the admin map and
 * the booking's berth choice; the caller draws the berths and columns (`children`, drawn above
 * the piers and below the pier names). `viewBox` may crop the plan (default: all of it).
 */
export function HarbourPlan({
  berths,
  columns,
  label,
  children,
  defs,
  svgRef,
  className,
  style,
  onClick,
  viewBox,
  data,
}: {
  berths: readonly PlanBerth[];
  columns: readonly PlanColumn[];
  label: string;
  children: ReactNode;
  defs?: ReactNode;
  svgRef?: Ref<SVGSVGElement>;
  className?: string;
  style?: CSSProperties;
  onClick?: (e: MouseEvent<SVGSVGElement>) => void;
  viewBox?: string;
  data?: Record<`data-${string}`, string | boolean>;
}) {
  const { t } = useLingui();
  const piers = useMemo(() => piersOf(berths), [berths]);
  // The quay's name at the left edge of what is shown (a cropped plan starts further right).
  const left = Number(viewBox?.split(' ')[0] ?? 0) || 0;
  return (
    <svg
      ref={svgRef}
      viewBox={viewBox ?? `0 0 ${PLAN.width} ${PLAN.height}`}
      className={className}
      style={style}
      role="group"
      aria-label={label}
      onClick={onClick}
      {...data}
    >
      {defs}
      <rect width={PLAN.width} height={PLAN.height} fill="#dbeafe" />
      <rect width={PLAN.width} height="60" fill="#d6d3d1" />
      <text x={left + 16} y="36" fontSize="16" fill="#44403c" aria-hidden>{t`Kai`}</text>
      {piers.map((p) => (
        <rect key={p.name} aria-hidden x={p.x - 6} y={p.top} width="12" height={p.bottom - p.top} fill="#a8a29e" />
      ))}
      {children}
      {/* Pier names last, below the pier and below any column at its end, so no marker covers them. */}
      {piers.map((p) => (
        <text
          key={p.name}
          data-pier={p.name}
          aria-hidden
          x={p.x}
          y={pierLabelY(p, columns)}
          textAnchor="middle"
          fontSize="14"
          fill="#44403c"
          paintOrder="stroke"
          stroke="#dbeafe"
          strokeWidth="4"
          pointerEvents="none"
        >{t`Steg ${p.name}`}</text>
      ))}
    </svg>
  );
}
