import { useLingui } from '@lingui/react/macro';
import type { ExtraUnit } from '@/features/harbour/extras/api/extras';

/** The unit of an extra, for a quantity ("2 Waschgänge", "1 Tag"). */
export function useExtraUnitLabel() {
  const { t } = useLingui();
  return (unit: ExtraUnit | string, quantity = 1) => {
    const one = quantity === 1;
    switch (unit) {
      case 'load':
        return one ? t`Waschgang` : t`Waschgänge`;
      case 'day':
        return one ? t`Tag` : t`Tage`;
      default:
        return t`Stück`;
    }
  };
}

/** The entry's name in the page's language. */
export function useExtraName() {
  const { i18n } = useLingui();
  return (e: { name: string; name_en: string }) => (i18n.locale === 'en' ? e.name_en : e.name);
}
