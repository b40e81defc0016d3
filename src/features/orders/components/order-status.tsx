import { useLingui } from '@lingui/react/macro';
import { cn } from '@/lib/utils';
import type { OrderStatus, PaymentMethod, PaymentMode, PaymentStatus } from '@/features/orders/api/types';

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
  const tone =
    status === 'unverified'
      ? 'bg-amber-100 text-amber-950'
      : status === 'cancelled' || status === 'expired'
        ? 'bg-slate-200 text-slate-800'
        : 'bg-green-100 text-green-950';
  return <span className={cn('rounded-full px-2.5 py-0.5 text-sm font-medium', tone)}>{labels[status]}</span>;
}

/** The order's payment status in words; an open payment says how it is paid (the order's payment mode). */
export function usePaymentLabel() {
  const { t } = useLingui();
  return (status: PaymentStatus, mode?: PaymentMode) => {
    switch (status) {
      case 'paid':
        return t`Bezahlt`;
      case 'partially_refunded':
        return t`Teilweise erstattet`;
      case 'refunded':
        return t`Erstattet`;
      default:
        return mode === 'online_required'
          ? t`Zahlung offen – bitte online bezahlen`
          : mode === 'online_optional'
            ? t`Zahlung offen – online oder im Hafenbüro zahlbar`
            : t`Zahlung offen – zahlbar im Hafenbüro`;
    }
  };
}

/** How a ledger row was paid or refunded. */
export function usePaymentMethodLabel() {
  const { t } = useLingui();
  const labels: Record<PaymentMethod, string> = {
    online: t`Online (Karte)`,
    card_terminal: t`Kartenterminal`,
    cash: t`Bar`,
    bank_transfer: t`Überweisung`,
  };
  return (method: PaymentMethod | string) => labels[method as PaymentMethod] ?? method;
}
