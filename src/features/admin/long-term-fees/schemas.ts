import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { formatEuro, parseEuroCents } from '@/lib/prices';
import { messages } from '@/lib/validation';

/** An amount typed in euros ("608,77"), turned into integer cents between 1 and 10,000,000 (the database's limits). */
const euroCents = () =>
  z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .transform((text, ctx) => {
      const cents = parseEuroCents(text);
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: t`Betrag in Euro, z. B. 12,50` });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: () => t`Der Betrag muss größer als 0 sein.` })
        .max(10_000_000, { error: () => t`Höchstens 100.000 €.` }),
    );

/** An optional note (the bank statement), at most 500 characters. */
const note = () =>
  z
    .string()
    .trim()
    .max(500, { error: () => messages.max(500) });

/**
 * A transfer staff record for a fee: the amount received in euros (turned into integer cents;
 * more than the balance is allowed: the money is there and shows as a credit) and an optional
 * note (the bank statement). The database checks again.
 */
export const feeTransferSchema = () => z.object({ amount: euroCents(), note: note() });

/**
 * An overpayment staff pay back to the holder by transfer: at most what is overpaid (the
 * database refuses more with fee_repay_exceeds_overpaid), an optional note.
 */
export const feeRepaySchema = (overpaidCents: number, locale: string) =>
  z.object({
    amount: euroCents().refine((cents) => cents <= overpaidCents, {
      error: () => t`Höchstens der überzahlte Betrag (${formatEuro(overpaidCents, locale)}).`,
    }),
    note: note(),
  });

export type FeeTransferInput = z.input<ReturnType<typeof feeTransferSchema>>;
export type FeeTransferValues = z.output<ReturnType<typeof feeTransferSchema>>;
