import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { parseEuroCents } from '@/lib/prices';
import { euroCentsField, messages, requiredText } from '@/lib/validation';

/** A price typed in euros ("5", "5,00") as integer cents, 0 to 10 000 €. The database checks again. */
const euroField = () =>
  euroCentsField({ min: 0, max: 1_000_000, maxDigits: 5, invalid: () => t`Betrag in Euro, z. B. 12,50 (höchstens 10.000 €)` });

/** A quantity typed as digits: 1-99. */
const quantityField = () =>
  z
    .string()
    .trim()
    .regex(/^\d{1,2}$/, { error: () => t`Eine ganze Zahl von 1 bis 99.` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: () => t`Eine ganze Zahl von 1 bis 99.` })
        .max(99),
    );

/**
 * Staff add an extra to an order: the entry, the quantity, and for a "from" price (boat lift)
 * the unit price, never below the list price.
 */
export const addExtraSchema = (catalogue: { id: string; price_cents: number; price_from: boolean }[]) =>
  z
    .object({
      extraId: z.string().min(1, { error: messages.required }),
      quantity: quantityField(),
      price: z.string().trim(),
    })
    .transform((v, ctx) => {
      const extra = catalogue.find((e) => e.id === v.extraId);
      if (!extra) {
        ctx.addIssue({ code: 'custom', path: ['extraId'], message: messages.required() });
        return z.NEVER;
      }
      let unitPriceCents: number | undefined;
      if (extra.price_from && v.price !== '') {
        const cents = parseEuroCents(v.price, 5);
        if (cents === null || cents < extra.price_cents || cents > 1_000_000) {
          ctx.addIssue({ code: 'custom', path: ['price'], message: t`Mindestens der Listenpreis, höchstens 10.000 €.` });
          return z.NEVER;
        }
        unitPriceCents = cents;
      }
      return { extraId: v.extraId, quantity: v.quantity, unitPriceCents };
    });

export type AddExtraInput = z.input<ReturnType<typeof addExtraSchema>>;
export type AddExtraValues = z.output<ReturnType<typeof addExtraSchema>>;

/** An admin's catalogue entry: names, unit, gross price, VAT rate; a deposit always at 0 %. */
export const extraFormSchema = () =>
  z
    .object({
      code: z
        .string()
        .trim()
        .regex(/^[a-z0-9_]{2,40}$/, { error: () => t`2–40 Zeichen: Kleinbuchstaben, Ziffern, Unterstrich.` }),
      name: requiredText(100),
      name_en: requiredText(100),
      unit: z.enum(['piece', 'load', 'day']),
      price: euroField(),
      price_from: z.boolean(),
      vat_rate: z.enum(['19', '7', '0']),
      deposit: z.boolean(),
      active: z.boolean(),
      sort_order: z
        .string()
        .trim()
        .regex(/^\d{1,5}$/, { error: () => t`Eine Zahl von 0 bis 10000.` })
        .transform(Number)
        .pipe(z.number().max(10000, { error: () => t`Eine Zahl von 0 bis 10000.` })),
    })
    .superRefine((v, ctx) => {
      if (v.deposit && v.vat_rate !== '0') {
        ctx.addIssue({ code: 'custom', path: ['vat_rate'], message: t`Ein Pfand ist kein Umsatz: immer 0 % USt.` });
      }
    });

export type ExtraFormInput = z.input<ReturnType<typeof extraFormSchema>>;
export type ExtraFormValues = z.output<ReturnType<typeof extraFormSchema>>;

/**
 * An admin's berth tariff: names and the gross price per unit (what a consumer pays, 0,01 € to
 * 1.000 €) with its VAT rate. The database checks again (public.tariffs).
 */
export const tariffFormSchema = () =>
  z.object({
    name: requiredText(100),
    name_en: requiredText(100),
    price: euroCentsField({ min: 1, max: 100_000, maxDigits: 4, invalid: () => t`Betrag in Euro von 0,01 bis 1.000, z. B. 2,38` }),
    vat_rate: z.enum(['19', '7', '0']),
  });

export type TariffFormInput = z.input<ReturnType<typeof tariffFormSchema>>;
export type TariffFormValues = z.output<ReturnType<typeof tariffFormSchema>>;

/** The buyer on a desk receipt above 250 € (§ 14 Abs. 4 UStG): name, street, postal code, city. */
export const buyerSchema = () =>
  z.object({
    name: requiredText(200),
    company: z
      .string()
      .trim()
      .max(200, { error: () => messages.max(200) }),
    street: requiredText(200),
    postal_code: requiredText(20),
    city: requiredText(200),
  });

export type BuyerValues = z.output<ReturnType<typeof buyerSchema>>;

/** Quantities typed on the desk-sale page: empty or 0-99 per entry. */
export const deskQuantity = (text: string): number | null => {
  const v = text.trim();
  if (v === '') return 0;
  return /^\d{1,2}$/.test(v) ? Number(v) : null;
};

/**
 * A desk sale: a quantity (0-99) per catalogue entry, at least one item, a raised price only for
 * a "from" price, the payment method; above 250 € the buyer's name and address. The database
 * checks all of it again.
 */
export const deskSaleSchema = (catalogue: { id: string; price_cents: number; price_from: boolean }[]) =>
  z
    .object({
      // Untouched fields are undefined.
      quantities: z.record(z.string(), z.string().optional()),
      prices: z.record(z.string(), z.string().optional()),
      method: z.enum(['card_terminal', 'cash', 'bank_transfer'], { error: messages.required }),
      buyer: z.object({ name: z.string(), company: z.string(), street: z.string(), postal_code: z.string(), city: z.string() }),
    })
    .transform((v, ctx) => {
      const items: { extraId: string; quantity: number; unitPriceCents?: number }[] = [];
      let gross = 0;
      for (const e of catalogue) {
        const q = deskQuantity(v.quantities[e.id] ?? '');
        if (q === null) {
          ctx.addIssue({ code: 'custom', path: ['quantities', e.id], message: t`Eine ganze Zahl von 0 bis 99.` });
          continue;
        }
        if (q === 0) continue;
        let price = e.price_cents;
        let unitPriceCents: number | undefined;
        const typed = (v.prices[e.id] ?? '').trim();
        if (e.price_from && typed !== '') {
          const cents = parseEuroCents(typed, 5);
          if (cents === null || cents < e.price_cents || cents > 1_000_000) {
            ctx.addIssue({ code: 'custom', path: ['prices', e.id], message: t`Mindestens der Listenpreis, höchstens 10.000 €.` });
            continue;
          }
          price = cents;
          unitPriceCents = cents;
        }
        gross += q * price;
        items.push({ extraId: e.id, quantity: q, unitPriceCents });
      }
      if (items.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['method'], message: t`Bitte bei mindestens einem Extra eine Menge eintragen.` });
        return z.NEVER;
      }
      if (items.length > 20) {
        ctx.addIssue({ code: 'custom', path: ['method'], message: t`Höchstens 20 verschiedene Extras je Verkauf.` });
        return z.NEVER;
      }
      let buyer: BuyerValues | undefined;
      if (gross > 25_000) {
        const parsed = buyerSchema().safeParse(v.buyer);
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            ctx.addIssue({ code: 'custom', path: ['buyer', ...issue.path.map(String)], message: issue.message });
          return z.NEVER;
        }
        buyer = parsed.data;
      }
      return { items, method: v.method, gross, buyer };
    });

export type DeskSaleInput = z.input<ReturnType<typeof deskSaleSchema>>;
export type DeskSaleValues = z.output<ReturnType<typeof deskSaleSchema>>;
