import { z } from 'zod';
import { t } from '@lingui/core/macro';
import { dayField, requiredText } from '@/lib/validation';

/** seasons.kind and long_term_prices.season_kind (a check constraint in 61_seasons.sql). */
export const SEASON_KINDS = ['summer', 'winter', 'year_round'] as const;
export type SeasonKind = (typeof SEASON_KINDS)[number];

/** long_term_prices.basis: per m² (length x width) or per running metre of boat length. */
export const PRICE_BASES = ['square_metre', 'running_metre'] as const;
export type PriceBasis = (typeof PRICE_BASES)[number];

/** A season: German and English name, kind, first and last day (add_season and update_season check each again, and the overlap). */
export const seasonSchema = z
  .object({
    name: requiredText(100),
    nameEn: requiredText(100),
    kind: z.enum(SEASON_KINDS),
    startsOn: dayField(),
    endsOn: dayField(),
  })
  .refine((v) => v.endsOn > v.startsOn, { path: ['endsOn'], error: () => t`Das Saisonende muss nach dem Saisonbeginn liegen.` });

export type SeasonValues = z.infer<typeof seasonSchema>;
