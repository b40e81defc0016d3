import { useLingui } from '@lingui/react/macro';
import type { PriceBasis, SeasonKind } from '@/features/admin/seasons/api/seasons';

/** The names of the season kinds and price bases, in the page's language. */
export function useSeasonLabels() {
  const { t } = useLingui();
  const kind = (k: SeasonKind) => (k === 'summer' ? t`Sommer` : k === 'winter' ? t`Winter` : t`Ganzjährig`);
  const basis = (b: PriceBasis) => (b === 'square_metre' ? t`pro m² (Länge × Breite)` : t`pro laufendem Meter`);
  return { kind, basis };
}
