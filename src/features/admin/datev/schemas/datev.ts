import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { messages } from '@/lib/validation';
import { dayRangeSchema } from '@/features/admin/reports';
import { fiscalYearStart } from '@/features/admin/datev/lib/extf';

/**
 * The export range: two Berlin days in order, inside one fiscal year (DATEV: Datum vom and
 * Datum bis of a Buchungsstapel lie in one WJ). The database checks the same (datev_postings).
 */
export const datevRangeSchema = (fiscalYearStartDay: string) =>
  dayRangeSchema((v, refuse) => {
    if (fiscalYearStart(v.from, fiscalYearStartDay) !== fiscalYearStart(v.to, fiscalYearStartDay)) {
      refuse(t`Ein DATEV-Buchungsstapel umfasst höchstens ein Wirtschaftsjahr. Bitte exportieren Sie jedes Wirtschaftsjahr einzeln.`);
    }
  });
export type DatevRangeValues = z.infer<ReturnType<typeof datevRangeSchema>>;

const digits = (min: number, max: number, low: number, high: number) =>
  z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .refine((v) => new RegExp(`^\\d{${min},${max}}$`).test(v) && Number(v) >= low && Number(v) <= high, {
      error: () => t`Bitte eine Zahl von ${low} bis ${high} eingeben`,
    });

/** The settings form; account numbers are checked against the Sachkontenlänge below. */
export const datevSettingsSchema = () =>
  z
    .object({
      consultant_number: digits(4, 7, 1001, 9999999),
      client_number: digits(1, 5, 1, 99999),
      fiscal_year_start: z
        .string()
        .trim()
        .refine(
          (v) =>
            /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(v) &&
            Number(v.slice(3)) <= new Date(Date.UTC(2001, Number(v.slice(0, 2)), 0)).getUTCDate(),
          {
            error: () => t`Bitte Monat und Tag als MM-TT eingeben, z. B. 01-01`,
          },
        ),
      account_length: z.string().regex(/^[4-8]$/, { error: () => t`Zwischen 4 und 8 Stellen` }),
      account_debtor: z.string().trim(),
      account_revenue_19: z.string().trim(),
      account_revenue_7: z.string().trim(),
      account_revenue_0: z.string().trim(),
      account_cash: z.string().trim(),
      account_bank: z.string().trim(),
      account_transit: z.string().trim(),
    })
    .superRefine((v, ctx) => {
      if (!/^[4-8]$/.test(v.account_length)) return;
      const length = Number(v.account_length);
      for (const key of [
        'account_revenue_19',
        'account_revenue_7',
        'account_revenue_0',
        'account_cash',
        'account_bank',
        'account_transit',
      ] as const) {
        if (!new RegExp(`^[1-9]\\d{${length - 1}}$`).test(v[key]))
          ctx.addIssue({ code: 'custom', path: [key], message: t`Ein Sachkonto hat genau ${length} Ziffern` });
      }
      const personal = length + 1;
      if (!new RegExp(`^[1-9]\\d{${length}}$`).test(v.account_debtor))
        ctx.addIssue({ code: 'custom', path: ['account_debtor'], message: t`Ein Debitorenkonto hat genau ${personal} Ziffern` });
    });
export type DatevSettingsValues = z.infer<ReturnType<typeof datevSettingsSchema>>;

/** The archive's range: two Berlin days in order, at most 366 days (public.invoice_archive_documents checks the same). */
export const archiveRangeSchema = () =>
  dayRangeSchema((v, refuse) => {
    if ((Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`)) / 86_400_000 >= 366) {
      refuse(t`Ein Archiv umfasst höchstens ein Jahr (366 Tage). Bitte teilen Sie den Zeitraum auf.`);
    }
  });
export type ArchiveRangeValues = z.infer<ReturnType<typeof archiveRangeSchema>>;
