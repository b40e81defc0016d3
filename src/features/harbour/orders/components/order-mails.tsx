import { queryOptions, useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Section } from '@/components/page';
import { getSupabase } from '@/lib/auth';
import { formatBerlinDateTime } from '@/lib/dates';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { FormAlert } from '@/components/form-alert';

interface OrderMail {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  status: string;
  created_at: string;
  sent_at: string | null;
}

/** The e-mails the guest was sent about this order (RLS: staff read an order's e-mails). */
const orderMailsQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...harbourKeys.all, 'orders', 'mails', orderId] as const,
    queryFn: async (): Promise<OrderMail[]> => {
      const supabase = await getSupabase();
      const { data, error } = await supabase
        .from('outbox')
        .select('id, kind, recipient, subject, status, created_at, sent_at')
        .eq('order_id', orderId)
        .order('id');
      if (error) throw error;
      return data;
    },
  });

/** What the guest was told and when: every e-mail of the order, sent or waiting. */
export function OrderMails({ orderId }: { orderId: string }) {
  const { t, i18n } = useLingui();
  const mails = useQuery(orderMailsQueryOptions(orderId));
  const kindLabel = (kind: string) => {
    switch (kind) {
      case 'booking_confirmation':
        return t`Buchungsbestätigung`;
      case 'booking_changed':
        return t`Änderung`;
      case 'booking_cancelled':
        return t`Stornierung`;
      case 'payment_receipt':
        return t`Zahlungsbestätigung`;
      case 'refund_notice':
        return t`Erstattung`;
      case 'deposit_return':
        return t`Pfandrückgabe`;
      default:
        return kind;
    }
  };
  const statusLabel = (mail: OrderMail) =>
    mail.status === 'sent' && mail.sent_at
      ? t`gesendet ${formatBerlinDateTime(mail.sent_at, i18n.locale)}`
      : mail.status === 'failed'
        ? t`fehlgeschlagen`
        : t`wird gesendet`;
  return (
    <Section title={t`E-Mails an den Gast`} aria-label={t`E-Mails an den Gast`}>
      {mails.isError && (
        <FormAlert className="text-sm">
          <Trans>Die E-Mails konnten nicht geladen werden.</Trans>
        </FormAlert>
      )}
      {mails.data?.length === 0 && (
        <p className="text-sm text-slate-700">
          <Trans>Keine E-Mails zu dieser Buchung.</Trans>
        </p>
      )}
      {!!mails.data?.length && (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label={t`E-Mails an den Gast`}>
          {mails.data.map((m) => (
            <li key={m.id} className="flex flex-col gap-0.5 px-4 py-2 text-sm">
              <span className="font-medium">
                {kindLabel(m.kind)} · {m.subject}
              </span>
              <span className="text-slate-600">
                {m.recipient} · {formatBerlinDateTime(m.created_at, i18n.locale)} · {statusLabel(m)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
