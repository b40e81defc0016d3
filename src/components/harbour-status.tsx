import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { clsx } from 'clsx';
import { useAppQuery } from '@/lib/query';
import { formatLevel, harbourStatusQueryOptions, type HarbourStatusKind } from '@/lib/harbour-status';

// Kept small: it is part of /start's first download (docs/adr/0043-first-load-budgets.md), so
// no icons, no date helpers; the service page adds what the marks mean and the forecast days
// as children (src/features/service/components/harbour-status-details.tsx).
export const HARBOUR_STATUS_BOX: Record<HarbourStatusKind, string> = {
  open: 'border-emerald-600 bg-emerald-50 text-emerald-950',
  restricted: 'border-amber-500 bg-amber-50 text-amber-950',
  closed: 'border-red-600 bg-red-50 text-red-950',
};

/**
 * The harbour status from the Düsseldorf gauge (docs/adr/0053): open, restricted or closed, why,
 * and the last known level with the time it was measured (when the gauge has not answered for
 * a while, the time says so). Nothing while no level is known or the status cannot be loaded (the service page's
 * water levels say why).
 */
export function HarbourStatus({ children }: { children?: ReactNode }) {
  const { t, i18n } = useLingui();
  const query = useAppQuery(harbourStatusQueryOptions);
  const now = query.data?.find((r) => r.kind === 'now');
  if (!now?.status || now.level_cm === null || !now.at) return null;
  const level = formatLevel(now.level_cm, i18n.locale);
  const time = new Date(now.at).toLocaleString(i18n.locale === 'en' ? 'en-GB' : 'de-DE', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'Europe/Berlin',
  });
  const reason = now.override_reason;
  return (
    <section
      className={clsx('flex flex-col gap-1 rounded-xl border border-l-8 p-4', HARBOUR_STATUS_BOX[now.status])}
      aria-label={t`Hafenstatus`}
      data-testid="harbour-status"
    >
      <p className="font-semibold">
        {now.status === 'closed' ? (
          <Trans>Hafen geschlossen</Trans>
        ) : now.status === 'restricted' ? (
          <Trans>Hafen eingeschränkt befahrbar</Trans>
        ) : (
          <Trans>Hafen offen</Trans>
        )}
      </p>
      {reason && (
        <p className="text-sm">
          <Trans>Vom Hafen festgelegt: {reason}</Trans>
        </p>
      )}
      <p className="text-sm" data-testid="harbour-status-level">
        <Trans>
          Pegel Düsseldorf: {level}, gemessen {time}.
        </Trans>
      </p>
      {children}
    </section>
  );
}
