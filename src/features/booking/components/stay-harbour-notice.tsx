import { Trans, useLingui } from '@lingui/react/macro';
import { clsx } from 'clsx';
import { HARBOUR_STATUS_BOX } from '@/components/harbour-status';
import { formatDay } from '@/lib/dates';
import { formatLevel } from '@/lib/harbour-status';
import type { StayHarbourDay } from '@/features/booking/api/stay-harbour-status';

/**
 * The harbour status of the chosen stay (issue 43 item 2, docs/adr/0053), beside the search:
 * closed days say why no berth is offered (for staff: that guests cannot book them online),
 * restricted days warn. Nothing when every known day is open.
 */
export function StayHarbourNotice({ days, forStaff = false }: { days: StayHarbourDay[]; forStaff?: boolean }) {
  const { t, i18n } = useLingui();
  const closed = days.filter((d) => d.status === 'closed');
  const shown = closed.length > 0 ? closed : days.filter((d) => d.status === 'restricted');
  if (shown.length === 0) return null;
  const status = closed.length > 0 ? 'closed' : 'restricted';
  const list = shown.map((d) => formatDay(d.day, i18n.locale)).join(', ');
  const levels = shown.map((d) => d.level_cm).filter((l): l is number => l !== null);
  const level = levels.length > 0 ? formatLevel(Math.max(...levels), i18n.locale) : null;
  const reason = shown.find((d) => d.override_reason)?.override_reason ?? null;
  return (
    <section
      role={status === 'closed' ? 'alert' : 'status'}
      aria-label={t`Hafenstatus für den Aufenthalt`}
      data-testid="stay-harbour-status"
      data-status={status}
      className={clsx('flex flex-col gap-1 rounded-xl border border-l-8 p-4', HARBOUR_STATUS_BOX[status])}
    >
      <p className="font-semibold">
        {status === 'closed' ? <Trans>Hafen geschlossen am {list}</Trans> : <Trans>Hafen eingeschränkt befahrbar am {list}</Trans>}
      </p>
      {reason ? (
        <p className="text-sm">
          <Trans>Vom Hafen festgelegt: {reason}</Trans>
        </p>
      ) : (
        level && (
          <p className="text-sm">
            {status === 'closed' ? (
              <Trans>
                Der Rhein steht dann laut Pegel Düsseldorf bei bis zu {level}, über der Hochwassermarke II: die Schifffahrt ist gesperrt.
              </Trans>
            ) : (
              <Trans>
                Der Rhein steht dann laut Pegel Düsseldorf bei bis zu {level}, über der Hochwassermarke I: Schiffe fahren in der Strommitte
                und langsam. Ein- und Auslaufen ist möglich; bitte planen Sie mehr Zeit ein.
              </Trans>
            )}
          </p>
        )
      )}
      {status === 'closed' && (
        <p className="text-sm">
          {forStaff ? (
            <Trans>
              Gäste können diese Tage nicht online buchen. Am Schalter buchen Sie sie nur für Boote, die schon im Hafen liegen und nicht
              auslaufen können.
            </Trans>
          ) : (
            <Trans>Für Aufenthalte mit einer Nacht an diesen Tagen bieten wir keinen Liegeplatz an. Bitte wählen Sie andere Tage.</Trans>
          )}
        </p>
      )}
    </section>
  );
}
