import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { FormAlert } from '@/components/form-alert';
import { formatBerlinDateTime, formatDay } from '@/lib/dates';
import { closureStaysQueryOptions, type ClosureStay } from '@/features/harbour/overview/api/closure-stays';

/** Whether the guest's closure e-mail went out (outbox status; none: the order has no usable address). */
function useMailLabel() {
  const { t } = useLingui();
  return (s: ClosureStay) =>
    s.mail_status === 'sent'
      ? t`E-Mail gesendet`
      : s.mail_status === 'failed'
        ? t`E-Mail fehlgeschlagen`
        : s.mail_status === 'none'
          ? t`Keine E-Mail-Adresse`
          : t`E-Mail wird gesendet`;
}

function useChoiceLabel() {
  const { t } = useLingui();
  return (s: ClosureStay) =>
    s.choice === 'keep'
      ? t`behält die Buchung`
      : s.choice === 'move'
        ? t`möchte verschieben`
        : s.choice === 'cancel'
          ? t`kostenlos storniert`
          : t`noch keine Antwort`;
}

/**
 * The stays of the harbour closure in force (issue 43, ADR 0053): guest, berth, dates, the closed
 * days, whether the guest was told and what they chose. Shown only while a closure is in force.
 */
export function ClosureStays() {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const { data, error } = useQuery(closureStaysQueryOptions());
  const mail = useMailLabel();
  const choice = useChoiceLabel();
  if (error)
    return (
      <FormAlert>
        <Trans>Die von der Hafenschließung betroffenen Aufenthalte konnten nicht geladen werden.</Trans>
      </FormAlert>
    );
  if (!data || data.length === 0) return null;
  return (
    <Section
      aria-label={t`Von der Hafenschließung betroffen`}
      data-testid="closure-stays"
      title={
        <>
          {t`Von der Hafenschließung betroffen`} <span className="text-slate-500">({data.length})</span>
        </>
      }
    >
      <ul className="grid gap-1 text-sm">
        {data.map((s) => (
          <li key={s.notice_id} className="rounded border border-red-200 bg-white px-3 py-2">
            <PathLink path={`/account/admin/orders/${s.order_id}`} className="font-semibold text-primary-dark underline">
              {s.booking_number}
            </PathLink>{' '}
            · {s.first_name} {s.last_name} · {t`Liegeplatz ${s.place_name}`}
            <span className="block text-slate-600">
              {formatBerlinDateTime(s.starts_at, locale)} – {formatBerlinDateTime(s.ends_at, locale)}
            </span>
            <span className="block text-slate-900">{t`Geschlossen: ${new Intl.ListFormat(locale).format(s.closed_days.map((d) => formatDay(d, locale)))}`}</span>
            <span className="block text-slate-600" data-testid="closure-stay-status">
              {mail(s)} · {choice(s)}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
