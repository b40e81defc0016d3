import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { decimal, isDecimal, messages, requiredText } from '@/lib/validation';

/** Known berth features (stored as keys; shown translated). */
export const FEATURES = ['electricity', 'water', 'wifi', 'lighting'] as const;

export const sizeField = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .refine((v) => isDecimal(v) && decimal(v) >= min && decimal(v) <= max, {
      error: () => t`Bitte eine Zahl von ${min} bis ${max} eingeben.`,
    });

/** Whole centimetres in [min, max], or empty (the berth's depth and the gauge level it was measured at). */
const centimetres = (min: number, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max), {
      error: () => t`Bitte ganze Zentimeter von ${min} bis ${max} eingeben.`,
    });

/** A coordinate on the 1000 x 600 plan, or empty. */
const coordinate = (max: number) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (isDecimal(v) && decimal(v) <= max), { error: () => t`Bitte eine Zahl von 0 bis ${max} eingeben.` });

export const placeSchema = z
  .object({
    name: requiredText(100),
    pier: z
      .string()
      .trim()
      .max(20, { error: () => messages.max(20) }),
    description: z
      .string()
      .trim()
      .max(2000, { error: () => messages.max(2000) }),
    description_en: z
      .string()
      .trim()
      .max(2000, { error: () => messages.max(2000) }),
    video_url: z
      .string()
      .trim()
      .refine((v) => v === '' || /^https:\/\/[^\s]+$/.test(v), { error: () => t`Bitte eine Adresse mit https:// eingeben.` }),
    length: sizeField(0, 99.9),
    width: sizeField(0, 99.9),
    one_day: z.boolean(),
    features: z.array(z.string()),
    // ADR 0053 "Draught against depth": the water depth and the Düsseldorf gauge level it was measured at.
    depth_cm: centimetres(0, 2000),
    depth_reference_cm: centimetres(-100, 2000),
    x: coordinate(1000),
    y: coordinate(600),
    additional_place_ids: z.array(z.string()),
  })
  .refine((v) => (v.depth_cm === '') === (v.depth_reference_cm === ''), {
    path: ['depth_reference_cm'],
    error: () => t`Die Wassertiefe braucht den Pegelstand, bei dem sie gemessen wurde (oder beide leer).`,
  })
  .refine((v) => (v.x === '') === (v.y === ''), {
    path: ['y'],
    error: () => t`Die Position braucht genau 2 Koordinaten (x und y) oder keine.`,
  });

export type PlaceValues = z.infer<typeof placeSchema>;

export function toPlaceInput(v: PlaceValues) {
  return {
    name: v.name,
    pier: v.pier || null,
    description: v.description,
    description_en: v.description_en,
    video_url: v.video_url || null,
    length: decimal(v.length),
    width: decimal(v.width),
    one_day: v.one_day,
    features: v.features,
    position: v.x === '' ? null : ([decimal(v.x), decimal(v.y)] as [number, number]),
    depth_cm: v.depth_cm === '' ? null : Number(v.depth_cm),
    depth_reference_cm: v.depth_reference_cm === '' ? null : Number(v.depth_reference_cm),
  };
}
