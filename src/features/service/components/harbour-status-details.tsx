import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDay } from '@/lib/dates';
import { formatLevel, harbourStatusQueryOptions, type HarbourStatusKind } from '@/lib/harbour-status';

/**
 * The service page's part of the harbour status (docs/adr/0053): what the high-water mark means
 * for boats (unless staff set the status), and each forecast day's status by its highest level.
 */
export function HarbourStatusDetails() {
  const { t, i18n } = useLingui();
  const query = useQuery(harbourStatusQueryOptions);
  const now = query.data?.find((r) => r.kind === 'now');
  const days = (query.data ?? []).filter((r) => r.kind === 'forecast' && r.status && r.level_cm !== null);
  const word = (status: HarbourStatusKind) =>
    status === 'closed' ? t`geschlossen` : status === 'restricted' ? t`eingeschränkt` : t`offen`;
  return (
    <>
      {!now?.override_reason && now?.status === 'closed' && (
        <p className="text-sm">
          <Trans>Hochwasser über Marke II: Die Schifffahrt auf dem Rhein ist eingestellt.</Trans>
        </p>
      )}
      {!now?.override_reason && now?.status === 'restricted' && (
        <p className="text-sm">
          <Trans>Hochwasser über Marke I: Fahren Sie in der Strommitte und mit verminderter Geschwindigkeit.</Trans>
        </p>
      )}
      {days.length > 0 && (
        <div className="mt-1 text-sm">
          <p className="font-semibold">
            <Trans>Vorhersage</Trans>
          </p>
          <ul data-testid="harbour-status-forecast">
            {days.map((d) => {
              const day = formatDay(d.day, i18n.locale);
              const status = word(d.status!);
              const high = formatLevel(d.level_cm!, i18n.locale);
              return (
                <li key={d.day}>
                  <Trans>
                    {day}: {status} (höchstens {high})
                  </Trans>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </>
  );
}
