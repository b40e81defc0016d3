import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Cloud, CloudFog, CloudHail, CloudLightning, CloudRain, CloudSnow, CloudSun, Moon, Sun, Wind, type LucideIcon } from 'lucide-react';
import { formatDecimal } from '@/lib/numbers';
import { lastKnown } from '@/features/service/api/last-known';
import { WEATHER_PAGE, weatherQueryOptions, type Weather as WeatherData } from '@/features/service/api/brightsky';

const icons: Record<string, LucideIcon> = {
  'clear-day': Sun,
  'clear-night': Moon,
  'partly-cloudy-day': CloudSun,
  'partly-cloudy-night': Cloud,
  cloudy: Cloud,
  fog: CloudFog,
  wind: Wind,
  rain: CloudRain,
  sleet: CloudSnow,
  snow: CloudSnow,
  hail: CloudHail,
  thunderstorm: CloudLightning,
};

function useConditionLabel() {
  const { t } = useLingui();
  return (icon: string | null | undefined) =>
    ({
      'clear-day': t`klar`,
      'clear-night': t`klar`,
      'partly-cloudy-day': t`teils bewölkt`,
      'partly-cloudy-night': t`teils bewölkt`,
      cloudy: t`bewölkt`,
      fog: t`Nebel`,
      wind: t`windig`,
      rain: t`Regen`,
      sleet: t`Schneeregen`,
      snow: t`Schnee`,
      hail: t`Hagel`,
      thunderstorm: t`Gewitter`,
    })[icon ?? ''] ?? t`wechselhaft`;
}

/** Current conditions and a short forecast for the harbour from Bright Sky (DWD data). */
export function Weather() {
  const { i18n } = useLingui();
  const query = useQuery(weatherQueryOptions);
  if (query.isPending)
    return (
      <p className="text-slate-600">
        <Trans>Wetter wird geladen …</Trans>
      </p>
    );
  if (query.isError) {
    // Offline or the source down: the last weather this device received, with its time, and the source.
    const last = lastKnown<WeatherData>('weather');
    const source = (
      <a href={WEATHER_PAGE} target="_blank" rel="noreferrer" className="text-primary-dark underline underline-offset-4">
        <Trans>Deutscher Wetterdienst</Trans>
      </a>
    );
    if (!last) {
      return (
        <p className="rounded-md bg-amber-50 p-3 text-amber-900" data-testid="weather-unavailable">
          <Trans>Das Wetter ist zurzeit nicht verfügbar. Vorhersagen: {source}.</Trans>
        </p>
      );
    }
    const time = new Date(last.data.current.timestamp || last.at).toLocaleString(i18n.locale === 'en' ? 'en-GB' : 'de-DE', {
      dateStyle: 'short',
      timeStyle: 'short',
      timeZone: 'Europe/Berlin',
    });
    return (
      <div className="flex flex-col gap-2">
        <p className="rounded-md bg-amber-50 p-3 text-amber-900" data-testid="weather-unavailable">
          <Trans>
            Das Wetter kann zurzeit nicht aktualisiert werden. Zuletzt bekannt: Stand {time}. Vorhersagen: {source}.
          </Trans>
        </p>
        <WeatherView weather={last.data} />
      </div>
    );
  }
  return <WeatherView weather={query.data} />;
}

function WeatherView({ weather }: { weather: WeatherData }) {
  const { i18n } = useLingui();
  const label = useConditionLabel();
  const { current, days } = weather;
  const Icon = icons[current.icon ?? ''] ?? Cloud;
  const temperature = current.temperature == null ? '–' : Math.round(current.temperature);
  const wind = current.wind_speed_10 == null ? '–' : Math.round(current.wind_speed_10);
  const weekday = (day: string) =>
    new Date(`${day}T12:00:00`).toLocaleDateString(i18n.locale === 'en' ? 'en-GB' : 'de-DE', {
      weekday: 'short',
      day: 'numeric',
      month: 'numeric',
    });
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4" data-testid="weather">
      <div className="flex items-center gap-3">
        <Icon className="size-10 text-primary-dark" aria-hidden />
        <p className="text-3xl font-bold">{temperature} °C</p>
        <div className="text-sm text-slate-700">
          <p>{label(current.icon)}</p>
          <p>
            <Trans>Wind {wind} km/h</Trans>
          </p>
        </div>
      </div>
      {days.length > 0 && (
        <ul className="grid grid-cols-2 gap-2 xs:grid-cols-4">
          {days.map((d) => {
            const DayIcon = icons[d.icon] ?? Cloud;
            return (
              <li key={d.day} className="flex flex-col items-center gap-1 rounded-md bg-slate-50 p-2 text-sm">
                <span className="font-medium">{weekday(d.day)}</span>
                <DayIcon className="size-6 text-slate-700" aria-hidden />
                <span className="sr-only">{label(d.icon)}</span>
                <span>
                  {formatDecimal(d.min, i18n.locale, 0)}° / {formatDecimal(d.max, i18n.locale, 0)}°
                </span>
                <span className="text-xs text-slate-600">
                  <Trans>
                    {formatDecimal(d.precipitation, i18n.locale, 1)} mm, Wind bis {formatDecimal(d.wind, i18n.locale, 0)} km/h
                  </Trans>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="text-sm text-slate-600">
        <Trans>Quelle: Deutscher Wetterdienst über Bright Sky.</Trans>
      </p>
    </div>
  );
}
