import { useLingui } from '@lingui/react/macro';
import { cn } from '@/lib/utils';
import type { OrderStatus, PaymentStatus } from '../api/types';

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useLingui();
  const labels: Record<OrderStatus, string> = {
    unverified: t`Unbestätigt`,
    confirmed: t`Bestätigt`,
    checked_in: t`Eingecheckt`,
    completed: t`Abgeschlossen`,
    cancelled: t`Storniert`,
    expired: t`Verfallen`,
  };
  const tone = status === 'unverified' ? 'bg-amber-100 text-amber-950' : status === 'cancelled' || status === 'expired' ? 'bg-slate-200 text-slate-800' : 'bg-green-100 text-green-950';
  return <span className={cn('rounded-full px-2.5 py-0.5 text-sm font-medium', tone)}>{labels[status]}</span>;
}

export function usePaymentLabel() {
  const { t } = useLingui();
  return (status: PaymentStatus) =>
    status === 'paid' ? t`Bezahlt` : status === 'refunded' ? t`Erstattet` : status === 'partially_refunded' ? t`Teilweise erstattet` : t`Zahlung offen – zahlbar im Hafenbüro`;
}
