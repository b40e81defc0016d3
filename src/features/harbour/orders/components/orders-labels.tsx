import { useLingui } from '@lingui/react/macro';
import type { OrderStatus, PaymentStatus } from '@/features/orders';
import type { OrderKind } from '@/features/harbour/orders/api/orders';

export function useStatusLabel() {
  const { t } = useLingui();
  const labels: Record<OrderStatus, string> = {
    unverified: t`Unbestätigt`,
    confirmed: t`Bestätigt`,
    checked_in: t`Eingecheckt`,
    completed: t`Abgeschlossen`,
    cancelled: t`Storniert`,
    expired: t`Verfallen`,
  };
  return (s: OrderStatus | string) => labels[s as OrderStatus] ?? s;
}

export function useKindLabel() {
  const { t } = useLingui();
  const labels: Record<OrderKind, string> = { overnight: t`Übernachtung`, day: t`Tagesliegeplatz`, fair: t`Messe-Liegeplatz` };
  return (k: OrderKind | string) => labels[k as OrderKind] ?? k;
}

export function usePaymentShortLabel() {
  const { t } = useLingui();
  const labels: Record<PaymentStatus, string> = {
    pending: t`Offen`,
    paid: t`Bezahlt`,
    partially_refunded: t`Teilweise erstattet`,
    refunded: t`Erstattet`,
  };
  return (p: PaymentStatus | string) => labels[p as PaymentStatus] ?? p;
}
