import { useLingui } from '@lingui/react/macro';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import type { LongTermPrice } from '@/features/admin/seasons/api/seasons';
import { useSeasonLabels } from '@/features/admin/seasons/components/season-labels';

/** One price row as a line: gross per unit and season, electricity flat rate, VAT rates, valid from. */
export function PriceSummary({ price, showValidFrom = true }: { price: LongTermPrice; showValidFrom?: boolean }) {
  const { t, i18n } = useLingui();
  const labels = useSeasonLabels();
  const locale = i18n.locale;
  const unit = formatEuro(price.gross_cents, locale);
  const electricity = formatEuro(price.electricity_gross_cents, locale);
  const from = formatDay(price.valid_from, locale);
  return (
    <span>
      {t`${unit} ${labels.basis(price.basis)} je Saison, inkl. ${price.vat_rate} % USt.`}
      {price.electricity_gross_cents > 0 && ` · ${t`Strompauschale ${electricity}, inkl. ${price.electricity_vat_rate} % USt.`}`}
      {showValidFrom && ` · ${t`gilt ab ${from}`}`}
    </span>
  );
}
