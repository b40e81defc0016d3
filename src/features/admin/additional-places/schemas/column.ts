import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { decimal, isDecimal } from '@/lib/validation';
import type { ColumnInput } from '@/features/admin/additional-places/api/additional-places';

const position = (max: number) =>
  z.string().refine((v) => isDecimal(v) && decimal(v) <= max, {
    error: () => t`Position erforderlich: genau 2 Koordinaten (x 0–1000, y 0–600).`,
  });

/**
 * A column's fields as typed: a name of 1–100 characters, a type and both coordinates on the
 * 1000 x 600 plan ("12,5" or "12.5"). save_additional_place checks the position again.
 */
const nameError = () => t`Bitte einen Namen (1–100 Zeichen) eingeben.`;

export const columnSchema = z.object({
  type: z.enum(['electric', 'water']),
  name: z.string().trim().min(1, { error: nameError }).max(100, { error: nameError }),
  x: position(1000),
  y: position(600),
});
export type ColumnValues = z.input<typeof columnSchema>;

/** What the api saves for valid values (the name trimmed, the coordinates as numbers). */
export const columnInput = (v: z.output<typeof columnSchema>): ColumnInput => ({
  type: v.type,
  name: v.name,
  position: [decimal(v.x), decimal(v.y)],
});

export type ColumnDraftError = 'name' | 'position';

/** The values checked outside a form: the input to save, or which parts are wrong. */
export function parseColumn(d: ColumnValues): { input: ColumnInput } | { errors: ColumnDraftError[] } {
  const parsed = columnSchema.safeParse(d);
  if (parsed.success) return { input: columnInput(parsed.data) };
  const errors = new Set(parsed.error.issues.map((i): ColumnDraftError => (i.path[0] === 'name' ? 'name' : 'position')));
  return { errors: (['name', 'position'] as const).filter((e) => errors.has(e)) };
}
