import type { PaymentMethod } from '@/features/orders';

/** How staff take money at the desk (an order's payment or a desk sale). */
export type DeskPaymentMethod = Extract<PaymentMethod, 'card_terminal' | 'cash' | 'bank_transfer'>;
