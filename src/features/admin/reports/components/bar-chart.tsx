import { useId } from 'react';

export interface BarSegment {
  value: number;
  /** 0 = solid, 1 = hatched: a second series differs by pattern as well as colour. */
  series: 0 | 1;
}

export interface BarRow {
  label: string;
  segments: BarSegment[];
  /** The value as people read it, drawn at the end of the bar. */
  valueText: string;
}

const ROW = 26;
const LABEL_W = 150;
const VALUE_W = 120;
const WIDTH = 640;

/**
 * A horizontal bar chart in plain SVG (no chart library). Every bar carries its label and its
 * value as text, a second series is hatched as well as coloured, and the SVG is an image whose
 * title and description say what it shows; the table below each chart holds every figure.
 */
export function BarChart({ title, description, rows, max, legend }: { title: string; description: string; rows: BarRow[]; max?: number; legend?: [string, string] }) {
  const id = useId();
  const top = Math.max(max ?? 0, ...rows.map((r) => r.segments.reduce((sum, s) => sum + s.value, 0)), 0);
  const barW = WIDTH - LABEL_W - VALUE_W;
  const height = Math.max(1, rows.length) * ROW + 4;
  return (
    <figure className="flex flex-col gap-2">
      {legend && (
        <ul className="flex flex-wrap gap-4 text-sm text-slate-700" aria-label={title}>
          {legend.map((text, series) => (
            <li key={text} className="flex items-center gap-2">
              <svg width="18" height="12" aria-hidden="true">
                <rect width="18" height="12" className={series === 0 ? 'fill-sky-700' : ''} fill={series === 1 ? `url(#${id}-hatch)` : undefined} stroke="#0c4a6e" />
              </svg>
              {text}
            </li>
          ))}
        </ul>
      )}
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="h-auto w-full max-w-[640px] rounded-lg border border-slate-200 bg-white"
        preserveAspectRatio="xMinYMin meet"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <defs>
          <pattern id={`${id}-hatch`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" fill="#bae6fd" />
            <line x1="0" y1="0" x2="0" y2="6" stroke="#0c4a6e" strokeWidth="2.5" />
          </pattern>
        </defs>
        {rows.map((row, i) => {
          const y = 2 + i * ROW;
          let x = LABEL_W;
          return (
            <g key={`${row.label}-${i}`}>
              <text x={LABEL_W - 8} y={y + ROW / 2} textAnchor="end" dominantBaseline="middle" className="fill-slate-800 text-[13px]">
                {row.label}
              </text>
              {row.segments.map((s, j) => {
                const w = top > 0 ? (s.value / top) * barW : 0;
                const rect = <rect key={j} x={x} y={y + 4} width={Math.max(0, w)} height={ROW - 8} className={s.series === 0 ? 'fill-sky-700' : ''} fill={s.series === 1 ? `url(#${id}-hatch)` : undefined} stroke={s.series === 1 ? '#0c4a6e' : undefined} strokeWidth={s.series === 1 ? 1 : undefined} />;
                x += Math.max(0, w);
                return rect;
              })}
              <text x={x + 6} y={y + ROW / 2} dominantBaseline="middle" className="fill-slate-900 text-[13px] font-semibold">
                {row.valueText}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
