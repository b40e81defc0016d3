import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import { berlinToday, formatDay } from '@/lib/dates';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import {
  longTermPricesQueryOptions,
  priceOn,
  pricesAfter,
  SEASON_KINDS,
  seasonName,
  seasonsQueryOptions,
  type LongTermPrice,
  type Season,
} from '@/features/admin/seasons/api/seasons';
import { PriceSummary } from '@/features/admin/seasons/components/price-summary';
import { SeasonForm } from '@/features/admin/seasons/components/season-form';
import { PriceForm } from '@/features/admin/seasons/components/price-form';
import { useSeasonLabels } from '@/features/admin/seasons/components/season-labels';
import { useDeleteSeason } from '@/features/admin/seasons/api/add-season';

/**
 * /account/admin/seasons: the seasons long-term berths are let for and the long-term price list
 * (issue 42, docs/adr/0046-seasons-and-long-term-prices.md). Each season shows the price valid on
 * its first day; each kind its price in force today and the changes announced.
 */
export function SeasonsPage() {
  const { t } = useLingui();
  const seasons = useQuery(seasonsQueryOptions());
  const prices = useQuery(longTermPricesQueryOptions());
  const error = seasons.error ?? prices.error;
  return (
    <Page
      title={t`Saisons und Langzeitpreise`}
      lead={t`Die Saisons, für die Langzeitlieger einen Liegeplatz mieten, und ihre Preise. Eine Preisänderung gilt ab der nächsten Saison; die Preisliste bleibt mit ihrer Geschichte erhalten.`}
    >
      {error ? (
        <FormAlert box>{staffErrorMessage(error)}</FormAlert>
      ) : seasons.data && prices.data ? (
        <>
          <SeasonList seasons={seasons.data} prices={prices.data} />
          <PriceList prices={prices.data} />
        </>
      ) : (
        <p role="status">
          <Trans>Lädt…</Trans>
        </p>
      )}
      <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
        <SeasonForm />
        <PriceForm />
      </div>
    </Page>
  );
}

function SeasonList({ seasons, prices }: { seasons: Season[]; prices: LongTermPrice[] }) {
  const { t, i18n } = useLingui();
  const labels = useSeasonLabels();
  const locale = i18n.locale;
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Season | null>(null);
  const remove = useDeleteSeason();
  return (
    <section aria-labelledby="seasons-heading" className="grid gap-3">
      <h2 id="seasons-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Saisons</Trans>
      </h2>
      {seasons.length === 0 ? (
        <p className="text-muted-foreground">
          <Trans>Noch keine Saison angelegt.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Saisons`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {seasons.map((s) => {
            const price = priceOn(prices, s.kind, s.starts_on);
            const name = seasonName(s, locale);
            if (editing === s.id)
              return (
                <li key={s.id} data-testid="season" className="px-2 py-2">
                  <SeasonForm season={s} onDone={() => setEditing(null)} />
                </li>
              );
            return (
              <li key={s.id} data-testid="season" className="flex flex-col gap-1 px-4 py-3">
                <span className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-medium text-slate-900">
                    {name} <span className="font-normal text-slate-600">· {labels.kind(s.kind)}</span>
                  </span>
                  <span className="flex gap-2">
                    <Button type="button" size="sm" variant="outline" aria-label={t`${name} bearbeiten`} onClick={() => setEditing(s.id)}>
                      <Trans>Bearbeiten</Trans>
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      aria-label={t`${name} löschen`}
                      onClick={() => {
                        remove.reset();
                        setDeleting(s);
                      }}
                    >
                      <Trans>Löschen</Trans>
                    </Button>
                  </span>
                </span>
                <span className="text-sm text-slate-700">
                  {formatDay(s.starts_on, locale)} – {formatDay(s.ends_on, locale)}
                </span>
                <span className="text-sm text-slate-600">
                  {price ? <PriceSummary price={price} /> : <Trans>Für diese Saison gibt es noch keinen Preis.</Trans>}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t`Saison löschen?`}
        description={
          deleting
            ? t`${seasonName(deleting, locale)} (${formatDay(deleting.starts_on, locale)} – ${formatDay(deleting.ends_on, locale)}) wird gelöscht. Eine Saison, auf die sich ein Vertrag bezieht, bleibt.`
            : undefined
        }
        confirmLabel={t`Löschen`}
        destructive
        busy={remove.isPending}
        error={remove.error ? staffErrorMessage(remove.error) : undefined}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      />
    </section>
  );
}

function PriceList({ prices }: { prices: LongTermPrice[] }) {
  const { t } = useLingui();
  const labels = useSeasonLabels();
  const today = berlinToday();
  return (
    <section aria-labelledby="prices-heading" className="grid gap-3">
      <h2 id="prices-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Langzeitpreise</Trans>
      </h2>
      <ul aria-label={t`Langzeitpreise`} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {SEASON_KINDS.map((kind) => {
          const current = priceOn(prices, kind, today);
          const upcoming = pricesAfter(prices, kind, today);
          return (
            <li key={kind} data-testid="price-kind" className="flex flex-col gap-1 px-4 py-3">
              <span className="font-medium text-slate-900">{labels.kind(kind)}</span>
              <span className="text-sm text-slate-700">
                <Trans>Aktuell:</Trans> {current ? <PriceSummary price={current} /> : <Trans>kein Preis</Trans>}
              </span>
              {upcoming.map((p) => (
                <span key={p.id} data-testid="upcoming-price" className="text-sm text-slate-700">
                  <Trans>Angekündigt:</Trans> <PriceSummary price={p} />
                </span>
              ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
