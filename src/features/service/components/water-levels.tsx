import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDownRight, ArrowRight, ArrowUpRight } from 'lucide-react';
import { formatDecimal } from '@/lib/numbers';
import { lastKnown } from '@/features/service/api/last-known';
import { PEGEL_PAGE, waterLevelQueryOptions, type WaterLevel } from '@/features/service/api/pegelonline';

function Chart({ days, unit }: { days: WaterLevel['days']; unit: string }) {
  const { t, i18n } = useLingui();
  if (days.length < 2) return null;
  const w = 300;
  const h = 100;
  const values = days.map((d) => d.value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = Math.max(1, max - min);
  const x = (i: number) => (i / (days.length - 1)) * w;
  const y = (v: number) => h - 8 - ((v - min) / span) * (h - 16);
  const path = days.map((d, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(d.value).toFixed(1)}`).join(' ');
  const date = (day: string) =>
    new Date(`${day}T12:00:00`).toLocaleDateString(i18n.locale === 'en' ? 'en-GB' : 'de-DE', { day: 'numeric', month: 'short' });
  const first = days[0];
  const last = days[days.length - 1];
  const n = (v: number) => formatDecimal(v, i18n.locale);
  return (
    <figure className="flex flex-col gap-1">
      <svg
        viewBox={`0 0 ${w} ${h}`}
        className="h-28 w-full"
        role="img"
        aria-label={t`Wasserstand der letzten ${days.length} Tage: von ${n(first.value)} ${unit} am ${date(first.day)} bis ${n(last.value)} ${unit} am ${date(last.day)}, niedrigster Tageswert ${n(min)} ${unit}, höchster ${n(max)} ${unit}.`}
      >
        <path d={path} fill="none" stroke="#046c9a" strokeWidth="2.5" strokeLinejoin="round" />
      </svg>
      <figcaption className="flex justify-between text-xs text-slate-600">
        <span>{date(first.day)}</span>
        <span>
          <Trans>Tagesmittel, 15 Tage</Trans>
        </span>
        <span>{date(last.day)}</span>
      </figcaption>
    </figure>
  );
}

/** The Rhine at the Düsseldorf gauge: current level, trend and 15 days, from PEGELONLINE. */
export function WaterLevels() {
  const { i18n } = useLingui();
  const query = useQuery(waterLevelQueryOptions);
  if (query.isPending)
    return (
      <p className="text-slate-600">
        <Trans>Pegel wird geladen …</Trans>
      </p>
    );
  if (query.isError) {
    // Offline or the source down: the last level this device received, with its time, and the source.
    const last = lastKnown<WaterLevel>('water-level');
    const source = (
      <a href={PEGEL_PAGE} target="_blank" rel="noreferrer" className="text-primary-dark underline underline-offset-4">
        PEGELONLINE
      </a>
    );
    if (!last) {
      return (
        <p className="rounded-md bg-amber-50 p-3 text-amber-900" data-testid="water-unavailable">
          <Trans>Der Pegel ist zurzeit nicht verfügbar. Aktuelle Werte: {source}.</Trans>
        </p>
      );
    }
    const time = berlinTime(last.data.timestamp, i18n.locale);
    return (
      <div className="flex flex-col gap-2">
        <p className="rounded-md bg-amber-50 p-3 text-amber-900" data-testid="water-unavailable">
          <Trans>
            Der Pegel kann zurzeit nicht aktualisiert werden. Zuletzt bekannt: gemessen {time}. Aktuelle Werte: {source}.
          </Trans>
        </p>
        <WaterLevelView level={last.data} />
      </div>
    );
  }
  return <WaterLevelView level={query.data} />;
}

const berlinTime = (iso: string, locale: string) =>
  new Date(iso).toLocaleString(locale === 'en' ? 'en-GB' : 'de-DE', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Berlin' });

function WaterLevelView({ level }: { level: WaterLevel }) {
  const { t, i18n } = useLingui();
  const trend = level.trend > 0 ? t`steigend` : level.trend < 0 ? t`fallend` : t`gleichbleibend`;
  const TrendIcon = level.trend > 0 ? ArrowUpRight : level.trend < 0 ? ArrowDownRight : ArrowRight;
  const time = berlinTime(level.timestamp, i18n.locale);
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4" data-testid="water-level">
      <div className="flex items-end gap-3">
        <p className="text-3xl font-bold">
          {formatDecimal(level.value, i18n.locale)} {level.unit}
        </p>
        <p className="flex items-center gap-1 pb-1 text-slate-700">
          <TrendIcon className="size-5" aria-hidden />
          {trend}
        </p>
      </div>
      <p className="text-sm text-slate-600">
        <Trans>Pegel Düsseldorf (Rhein-km 744,2), gemessen {time}. Quelle: PEGELONLINE, WSV.</Trans>
      </p>
      <Chart days={level.days} unit={level.unit} />
    </div>
  );
}
