import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '@/components/page';
import { Button } from '@/components/ui/button';
import { DatePicker } from '@/components/ui/date-picker';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import {
  DataTable,
  DataTableColumnHeader,
  DataTableFacetFilter,
  DataTablePagination,
  DataTableTextFilter,
  DataTableViewOptions,
  useUrlTable,
} from '@/components/ui/data-table';
import { berlinToday, formatBerlinDateTime, formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import {
  adminContractsQueryOptions,
  adminOffersQueryOptions,
  candidatesQueryOptions,
  freeBerthsQueryOptions,
  seasonsForOffersQueryOptions,
  useOfferNext,
  useSendOffer,
  useWithdrawOffer,
  type AdminContract,
  type AdminOffer,
  type Candidate,
} from '@/features/admin/long-term/api/offers';
import { contractStatuses, type OffersSearch } from '@/features/admin/long-term/api/offers-search';
import { sendOfferSchema, type SendOfferValues } from '@/features/admin/long-term/schemas/offer';
import { RenewalSection } from '@/features/admin/long-term/components/renewal-section';
import { ContractTermsSection } from '@/features/admin/long-term/components/contract-terms-form';
import { seasonName } from '@/features/admin/seasons';
import { ContractPdfButton } from '@/features/account';

const selectClass = 'h-9 rounded-md border border-slate-300 bg-white px-2';
const cell = 'border-b border-slate-100 px-2 py-1.5 align-top text-left';

type OnOffersSearch = (next: OffersSearch | ((p: OffersSearch) => OffersSearch)) => void;

/**
 * /account/admin/offers: a berth free for a season offered from the waiting list, the offers in
 * flight, the contracts with their balance (issue 42, ADR 0047, 0048). ?place=&season= open the
 * composer on a berth (links from the waiting list and the berth's holders).
 */
export function OffersPage({ search, onSearch }: { search: OffersSearch; onSearch: OnOffersSearch }) {
  const { t } = useLingui();
  return (
    <Page title={t`Angebote und Verträge`} lead={t`Freie Liegeplätze der Warteliste anbieten, Antworten verfolgen, angenommene Verträge.`}>
      <OfferComposer key={`${search.place ?? ''}/${search.season ?? ''}`} wantedPlace={search.place} wantedSeason={search.season} />
      <OffersInFlight />
      <ContractsTable search={search} onSearch={onSearch} />
      <RenewalSection />
      <ContractTermsSection />
    </Page>
  );
}

function useReasonLabel() {
  const { t } = useLingui();
  return (r: string) =>
    ({
      boat_too_long: t`Boot zu lang für den Liegeplatz`,
      boat_too_wide: t`Boot zu breit für den Liegeplatz`,
      other_berth: t`hat sich um einen anderen Liegeplatz beworben`,
      holds_berth: t`hat in der Saison schon einen Liegeplatz`,
      offer_open: t`hat schon ein offenes Angebot`,
      declined_before: t`hat diesen Liegeplatz schon abgelehnt`,
      lapsed_before: t`hat auf dieses Angebot nicht geantwortet`,
    })[r] ?? r;
}

function OfferComposer({ wantedPlace, wantedSeason }: { wantedPlace?: string; wantedSeason?: string }) {
  const { t, i18n } = useLingui();
  const seasons = useQuery(seasonsForOffersQueryOptions());
  const [season, setSeason] = useState(wantedSeason ?? '');
  const [place, setPlace] = useState(wantedPlace ?? '');
  // A link that names a berth but no season opens the first season that has not ended in which
  // the berth is free (else the first that has not ended).
  const today = berlinToday();
  const openSeasons = wantedPlace && !season ? (seasons.data ?? []).filter((s) => s.ends_on >= today) : [];
  const freeIn = useQueries({ queries: openSeasons.map((s) => freeBerthsQueryOptions(s.id)) });
  const firstFree = openSeasons.find((_, i) => freeIn[i]?.data?.some((p) => p.place_id === wantedPlace));
  const linkSeason = firstFree?.id ?? (freeIn.every((q) => !q.isPending) ? (openSeasons[0]?.id ?? '') : '');
  const chosenSeason = season || linkSeason;
  const free = useQuery({ ...freeBerthsQueryOptions(chosenSeason), enabled: !!chosenSeason });
  // The berth counts only while it is free in the chosen season (held or offered, it cannot be offered).
  const chosenPlace = free.data?.some((p) => p.place_id === place) ? place : '';
  const notFree = !!place && !!free.data && !chosenPlace;
  const candidates = useQuery({ ...candidatesQueryOptions(chosenPlace, chosenSeason), enabled: !!chosenSeason && !!chosenPlace });
  const reason = useReasonLabel();
  return (
    <section aria-label={t`Liegeplatz anbieten`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-semibold">
        <Trans>Liegeplatz anbieten</Trans>
      </h2>
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <Trans>Saison</Trans>
          <select className={selectClass} value={chosenSeason} onChange={(e) => setSeason(e.target.value)}>
            <option value="">{t`Saison wählen`}</option>
            {seasons.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {seasonName(s, i18n.locale)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <Trans>Freier Liegeplatz</Trans>
          <select className={selectClass} value={chosenPlace} disabled={!chosenSeason} onChange={(e) => setPlace(e.target.value)}>
            <option value="">{t`Liegeplatz wählen`}</option>
            {free.data?.map((p) => (
              <option key={p.place_id} value={p.place_id}>
                {p.name} ({p.length} × {p.width} m)
              </option>
            ))}
          </select>
        </label>
      </div>
      {notFree && (
        <p role="status" className="text-sm text-slate-700">
          <Trans>
            Der gewählte Liegeplatz ist in dieser Saison nicht frei (Langzeitlieger oder offenes Angebot). Bitte eine andere Saison wählen.
          </Trans>
        </p>
      )}
      {free.error && <FormAlert>{staffErrorMessage(free.error)}</FormAlert>}
      {candidates.error && <FormAlert>{staffErrorMessage(candidates.error)}</FormAlert>}
      {candidates.data && (
        <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={t`Bewerbungen in der Reihenfolge der Warteliste`}>
          <table className="w-full text-sm">
            <caption className="sr-only">{t`Bewerbungen in der Reihenfolge der Warteliste`}</caption>
            <thead>
              <tr>
                <th className={cell}>#</th>
                <th className={cell}>{t`Name`}</th>
                <th className={cell}>{t`Boot`}</th>
                <th className={cell}>{t`Vorschlag`}</th>
                <th className={cell}>
                  <span className="sr-only">{t`Aktionen`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {candidates.data.length === 0 && (
                <tr>
                  <td className={cell} colSpan={5}>
                    <Trans>Die Warteliste ist leer.</Trans>
                  </td>
                </tr>
              )}
              {candidates.data.map((c) => (
                <tr key={c.application_id} data-candidate={c.email}>
                  <td className={cell}>{c.waiting_position}</td>
                  <th scope="row" className={cell}>
                    {c.first_name} {c.last_name}
                  </th>
                  <td className={cell}>
                    {c.boat_name} ({c.boat_length} × {c.boat_width} m)
                  </td>
                  <td className={cell}>{c.proposed ? <Trans>vorgeschlagen</Trans> : c.reasons.map(reason).join('; ')}</td>
                  <td className={cell}>{c.proposed && <SendOfferButton candidate={c} placeId={chosenPlace} seasonId={chosenSeason} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SendOfferButton({ candidate, placeId, seasonId }: { candidate: Candidate; placeId: string; seasonId: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const send = useSendOffer();
  const form = useForm<SendOfferValues>({
    resolver: zodResolver(sendOfferSchema),
    defaultValues: { applicationId: candidate.application_id, deadline: '' },
  });
  const name = `${candidate.first_name} ${candidate.last_name}`;
  const submit = form.handleSubmit((v) =>
    send.mutate({ applicationId: v.applicationId, placeId, seasonId, deadline: v.deadline }, { onSuccess: () => setOpen(false) }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" aria-label={t`Angebot an ${name} senden`}>
          <Trans>Angebot senden</Trans>
        </Button>
      }
      title={<Trans>Angebot an {name} senden?</Trans>}
      description={<Trans>Die Bewerbung erhält das Angebot mit Vertrag und Preis per E-Mail und in ihrem Konto.</Trans>}
      confirmLabel={<Trans>Angebot senden</Trans>}
      busy={send.isPending}
      error={send.error ? staffErrorMessage(send.error) : undefined}
      onConfirm={() => void submit()}
    >
      <Form {...form}>
        <form noValidate onSubmit={(e) => void submit(e)}>
          <FormField
            control={form.control}
            name="deadline"
            render={({ field }) => (
              <FormItem className="gap-1">
                <FormLabel>
                  <Trans>Antwort bis (leer: Frist aus den Einstellungen, 14 Tage)</Trans>
                </FormLabel>
                <FormControl>
                  <DatePicker {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </form>
      </Form>
    </ConfirmDialog>
  );
}

function useStatusLabel() {
  const { t } = useLingui();
  return (s: string) =>
    ({
      open: t`offen`,
      accepted: t`angenommen`,
      declined: t`abgelehnt`,
      lapsed: t`verfallen`,
      withdrawn: t`zurückgezogen`,
      active: t`aktiv`,
      noticed: t`gekündigt`,
      ended: t`beendet`,
    })[s] ?? s;
}

function OffersInFlight() {
  const { t, i18n } = useLingui();
  const offers = useQuery(adminOffersQueryOptions());
  const status = useStatusLabel();
  const next = useOfferNext();
  const withdraw = useWithdrawOffer();
  return (
    <section aria-label={t`Angebote`} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">
        <Trans>Angebote</Trans>
      </h2>
      {offers.error && <FormAlert>{staffErrorMessage(offers.error)}</FormAlert>}
      {(next.error ?? withdraw.error) && <FormAlert>{staffErrorMessage(next.error ?? withdraw.error)}</FormAlert>}
      {offers.data && offers.data.length === 0 && (
        <p className="text-sm text-muted-foreground">
          <Trans>Noch keine Angebote.</Trans>
        </p>
      )}
      {offers.data && offers.data.length > 0 && (
        <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={t`Angebote`}>
          <table className="w-full text-sm">
            <caption className="sr-only">{t`Angebote`}</caption>
            <thead>
              <tr>
                <th className={cell}>{t`Bewerbung`}</th>
                <th className={cell}>{t`Liegeplatz`}</th>
                <th className={cell}>{t`Saison`}</th>
                <th className={cell}>{t`Status`}</th>
                <th className={cell}>{t`Antwort bis`}</th>
                <th className={cell}>
                  <span className="sr-only">{t`Aktionen`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {offers.data.map((o: AdminOffer) => (
                <tr key={o.id} data-offer={o.id} data-offer-email={o.email}>
                  <th scope="row" className={cell}>
                    {o.application ? `${o.application.first_name} ${o.application.last_name}` : o.email}
                  </th>
                  <td className={cell}>{o.place?.name}</td>
                  <td className={cell}>{o.season ? seasonName(o.season, i18n.locale) : null}</td>
                  <td className={cell} data-testid="offer-status">
                    {status(o.status)}
                    {o.decline_reason && <span className="block text-muted-foreground">{o.decline_reason}</span>}
                  </td>
                  <td className={cell}>{formatDay(o.deadline, i18n.locale)}</td>
                  <td className={cell}>
                    {o.status === 'open' && (
                      <Button size="sm" variant="outline" disabled={withdraw.isPending} onClick={() => withdraw.mutate(o.id)}>
                        <Trans>Zurückziehen</Trans>
                      </Button>
                    )}
                    {['declined', 'lapsed', 'withdrawn'].includes(o.status) && !o.next_offer_id && (
                      <Button size="sm" disabled={next.isPending} onClick={() => next.mutate(o.id)}>
                        <Trans>Nächstem Bewerber anbieten</Trans>
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ContractsTable({ search, onSearch }: { search: OffersSearch; onSearch: OnOffersSearch }) {
  const { t, i18n } = useLingui();
  const locale = i18n.locale;
  const contracts = useQuery(adminContractsQueryOptions());
  const status = useStatusLabel();
  const holderName = (c: AdminContract) => `${c.holder.first_name ?? ''} ${c.holder.last_name ?? ''}`.trim() || c.email;
  const q = (search.q ?? '').toLowerCase();
  const rows = (contracts.data ?? []).filter(
    (c) =>
      (!search.status || c.status === search.status) &&
      (!q ||
        [c.contract_number, holderName(c), c.place?.name, c.season?.name, c.season?.name_en, c.email].some((s) =>
          s?.toLowerCase().includes(q),
        )),
  );
  const columns = useMemo<ColumnDef<AdminContract>[]>(
    () => [
      {
        id: 'contract_number',
        accessorKey: 'contract_number',
        meta: { label: t`Vertrag`, rowHeader: true },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Vertrag`} />,
      },
      {
        id: 'holder',
        accessorFn: holderName,
        meta: { label: t`Mieter` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Mieter`} />,
      },
      {
        id: 'place',
        accessorFn: (c) => c.place?.name ?? '',
        meta: { label: t`Liegeplatz` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Liegeplatz`} />,
      },
      {
        id: 'season',
        accessorFn: (c) => (c.season ? seasonName(c.season, i18n.locale) : ''),
        meta: { label: t`Saison` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Saison`} />,
      },
      {
        id: 'status',
        accessorKey: 'status',
        meta: { label: t`Status` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Status`} />,
        cell: ({ row }) => status(row.original.status),
      },
      {
        id: 'gross_cents',
        accessorKey: 'gross_cents',
        meta: { label: t`Preis` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Preis`} />,
        cell: ({ row }) => formatEuro(Number(row.original.gross_cents), locale),
      },
      {
        id: 'balance_cents',
        accessorKey: 'balance_cents',
        meta: { label: t`Saldo`, className: 'whitespace-nowrap tabular-nums' },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Saldo`} />,
        cell: ({ row }) => <Balance cents={row.original.balance_cents} locale={locale} />,
      },
      {
        id: 'payment',
        enableSorting: false,
        meta: { label: t`Zahlung` },
        header: () => t`Zahlung`,
        cell: ({ row }) =>
          `${row.original.payment_plan} × ${row.original.payment_method === 'sepa_debit' ? t`SEPA-Lastschrift` : t`Überweisung`}`,
      },
      {
        id: 'accepted_at',
        accessorKey: 'accepted_at',
        meta: { label: t`Angenommen am` },
        header: ({ column }) => <DataTableColumnHeader column={column} title={t`Angenommen am`} />,
        cell: ({ row }) => formatBerlinDateTime(row.original.accepted_at, locale),
      },
      {
        id: 'pdf',
        enableSorting: false,
        meta: { label: t`PDF` },
        header: () => t`PDF`,
        cell: ({ row }) => <ContractPdfButton contract={row.original} size="sm" />,
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, locale],
  );
  const table = useUrlTable({
    data: rows,
    columns,
    search,
    onSearch,
    pageSize: 25,
    getRowId: (c) => c.id,
    defaultSort: 'accepted_at.desc',
  });
  return (
    <section aria-label={t`Verträge`} className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">
        <Trans>Verträge</Trans>
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <DataTableTextFilter
          id="contracts-search"
          label={t`Suche`}
          placeholder={t`Nummer, Name, Liegeplatz`}
          value={search.q ?? ''}
          onChange={(value) => onSearch((p) => ({ ...p, q: value.trim() || undefined, page: undefined }))}
        />
        <DataTableFacetFilter
          id="contracts-status"
          label={t`Status`}
          value={search.status}
          options={contractStatuses.map((value) => ({ value, label: status(value) }))}
          onChange={(value) => onSearch((p) => ({ ...p, status: value, page: undefined }))}
        />
        <DataTableViewOptions table={table} />
      </div>
      {contracts.error ? (
        <FormAlert>{staffErrorMessage(contracts.error)}</FormAlert>
      ) : (
        <>
          <DataTable
            table={table}
            caption={t`Verträge`}
            empty={<Trans>Noch keine Verträge.</Trans>}
            rowProps={(row) => ({ 'data-contract': row.original.contract_number })}
          />
          <DataTablePagination table={table} />
        </>
      )}
    </section>
  );
}

/** What the holder owes on a contract now; a negative balance is a credit (overpaid). */
function Balance({ cents, locale }: { cents: number; locale: string }) {
  if (cents >= 0) return <span data-testid="contract-balance">{formatEuro(cents, locale)}</span>;
  const credit = formatEuro(-cents, locale);
  return (
    <span data-testid="contract-balance">
      <Trans>{credit} Guthaben</Trans>
    </span>
  );
}
