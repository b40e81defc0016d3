import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormAlert } from '@/components/form-alert';
import { formatDay } from '@/lib/dates';
import { formatEuro } from '@/lib/prices';
import { staffErrorMessage } from '@/lib/errors/staff-messages';
import { seasonsForOffersQueryOptions } from '@/features/admin/long-term/api/offers';
import { renewalPreviewQueryOptions, useConfirmRenewal, useEndContract, type RenewalRow } from '@/features/admin/long-term/api/renewal';
import { seasonName } from '@/features/admin/seasons';
import {
  endContractSchema,
  renewalSeasonSchema,
  type EndContractValues,
  type RenewalSeasonValues,
} from '@/features/admin/long-term/schemas/renewal';

const selectClass = 'h-9 rounded-md border border-slate-300 bg-white px-2';
const cell = 'border-b border-slate-100 px-2 py-1.5 align-top text-left';

/**
 * The renewal run (issue 42 deliverable 6, ADR 0052): choose the season that ends, read the
 * preview (who renews at which price, who does not and why), confirm once; end a contract with a
 * reason.
 */
export function RenewalSection() {
  const { t, i18n } = useLingui();
  const seasons = useQuery(seasonsForOffersQueryOptions());
  const [season, setSeason] = useState('');
  const preview = useQuery({ ...renewalPreviewQueryOptions(season), enabled: !!season });
  const form = useForm<RenewalSeasonValues>({ resolver: zodResolver(renewalSeasonSchema), defaultValues: { seasonId: '' } });
  const submit = form.handleSubmit((v) => setSeason(v.seasonId));
  const rows = preview.data ?? [];
  const renewing = rows.filter((r) => r.action === 'renew');
  const next = rows[0] ? (i18n.locale === 'en' ? (rows[0].next_season_name_en ?? rows[0].next_season_name) : rows[0].next_season_name) : '';
  const action = useActionLabel();
  return (
    <section aria-label={t`Verlängerung`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="text-lg font-semibold">
        <Trans>Verlängerung für die nächste Saison</Trans>
      </h2>
      <p className="text-sm text-muted-foreground">
        <Trans>
          Verträge, deren Bedingungen eine Verlängerung vorsehen und deren Kündigungsfrist abgelaufen ist, verlängern sich um die nächste
          Saison derselben Art zum Preis, der an deren erstem Tag gilt; Zahlungsplan, Zahlungsweise und Vertragsbedingungen bleiben.
        </Trans>
      </p>
      <Form {...form}>
        <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-3">
          <FormField
            control={form.control}
            name="seasonId"
            render={({ field }) => (
              <FormItem className="gap-1">
                <FormLabel>
                  <Trans>Saison, die endet</Trans>
                </FormLabel>
                <FormControl>
                  <select className={selectClass} {...field}>
                    <option value="">{t`Saison wählen`}</option>
                    {seasons.data?.map((s) => (
                      <option key={s.id} value={s.id}>
                        {seasonName(s, i18n.locale)}
                      </option>
                    ))}
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button type="submit" variant="outline">
            <Trans>Vorschau</Trans>
          </Button>
        </form>
      </Form>
      {preview.error && <FormAlert>{staffErrorMessage(preview.error)}</FormAlert>}
      {preview.data && (
        <>
          <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={t`Vorschau der Verlängerung`}>
            <table className="w-full text-sm" data-testid="renewal-preview">
              <caption className="text-left text-sm font-medium">
                <Trans>Vorschau: Verlängerung in {next}</Trans>
              </caption>
              <thead>
                <tr>
                  <th className={cell}>{t`Mieter`}</th>
                  <th className={cell}>{t`Bisher`}</th>
                  <th className={cell}>{t`Neu`}</th>
                  <th className={cell}>{t`Ergebnis`}</th>
                  <th className={cell}>{t`Liegeplatz`}</th>
                  <th className={cell}>
                    <span className="sr-only">{t`Aktionen`}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 && (
                  <tr>
                    <td className={cell} colSpan={6}>
                      <Trans>Keine Verträge in dieser Saison.</Trans>
                    </td>
                  </tr>
                )}
                {rows.map((r) => (
                  <tr key={r.contract_id} data-renewal={r.contract_number}>
                    <th scope="row" className={cell}>
                      {r.first_name} {r.last_name}
                      <span className="block text-xs font-normal text-muted-foreground">{r.contract_number}</span>
                    </th>
                    <td className={cell}>{formatEuro(Number(r.old_gross_cents), i18n.locale)}</td>
                    <td className={cell}>
                      {formatEuro(Number(r.new_gross_cents), i18n.locale)}
                      {r.changes.includes('price_changed') && (
                        <span className="block text-xs text-amber-800">
                          <Trans>Preis geändert</Trans>
                        </span>
                      )}
                      {r.changes.includes('price_announced_late') && (
                        <span className="block text-xs text-amber-800">
                          <Trans>erst nach der Kündigungsfrist angekündigt</Trans>
                        </span>
                      )}
                      {r.changes.includes('terms_newer') && (
                        <span className="block text-xs text-muted-foreground">
                          <Trans>bleibt bei seiner Fassung der Bedingungen</Trans>
                        </span>
                      )}
                    </td>
                    <td className={cell}>{action(r)}</td>
                    <td className={cell}>
                      {r.place_name}
                      <span className="block text-xs text-muted-foreground">{r.boat_name}</span>
                    </td>
                    <td className={cell}>
                      {(r.action === 'renew' || r.action === 'notice_open' || r.action === 'renewed') && <EndContractButton row={r} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ConfirmRenewal seasonId={season} count={renewing.length} next={next} />
        </>
      )}
    </section>
  );
}

function useActionLabel() {
  const { t, i18n } = useLingui();
  return (r: RenewalRow) =>
    ({
      renew: t`wird verlängert`,
      renewed: t`verlängert`,
      noticed: t`gekündigt: nicht verlängert`,
      ended: t`beendet: nicht verlängert`,
      terms_end: t`endet nach seinen Vertragsbedingungen: nicht verlängert`,
      berth_archived: t`Liegeplatz stillgelegt: nicht verlängert`,
      berth_taken: t`Liegeplatz in der nächsten Saison vergeben: nicht verlängert`,
      notice_open: t`Kündigung noch bis ${formatDay(r.notice_deadline, i18n.locale)} möglich`,
    })[r.action] ?? r.action;
}

function ConfirmRenewal({ seasonId, count, next }: { seasonId: string; count: number; next: string }) {
  const [open, setOpen] = useState(false);
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  const [issued, setIssued] = useState<number | null>(null);
  const confirm = useConfirmRenewal();
  return (
    <div className="flex flex-col gap-2">
      {issued !== null && (
        <p role="status" className="text-sm font-medium">
          <Trans>{issued} Verträge verlängert; die Mieter sind per E-Mail benachrichtigt.</Trans>
        </p>
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (o) confirm.reset();
        }}
        trigger={
          <Button className="self-start" disabled={count === 0}>
            <Trans>{count} Verträge verlängern</Trans>
          </Button>
        }
        title={
          <Trans>
            {count} Verträge in {next} verlängern?
          </Trans>
        }
        description={<Trans>Jeder Mieter erhält den neuen Vertrag per E-Mail, der Liegeplatz ist für die nächste Saison vergeben.</Trans>}
        confirmLabel={<Trans>Verlängern</Trans>}
        busy={confirm.isPending}
        error={confirm.error ? staffErrorMessage(confirm.error) : undefined}
        onConfirm={() =>
          confirm.mutate(
            { seasonId, requestKey },
            {
              onSuccess: (run) => {
                setIssued(run.issued);
                setOpen(false);
                setRequestKey(crypto.randomUUID());
              },
            },
          )
        }
      />
    </div>
  );
}

function EndContractButton({ row }: { row: RenewalRow }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const end = useEndContract();
  const form = useForm<EndContractValues>({ resolver: zodResolver(endContractSchema), defaultValues: { reason: '' } });
  const submit = form.handleSubmit((v) =>
    end.mutate({ contractId: row.contract_id, reason: v.reason }, { onSuccess: () => setOpen(false) }),
  );
  const number = row.contract_number;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button size="sm" variant="outline" aria-label={t`Vertrag ${number} beenden`}>
          <Trans>Beenden</Trans>
        </Button>
      }
      title={<Trans>Vertrag {number} beenden?</Trans>}
      description={
        row.action === 'renewed' ? (
          <Trans>
            Der Vertrag endet; seine schon ausgestellte Verlängerung für die nächste Saison endet mit (ihre Rechnungen werden storniert, der
            Liegeplatz wird frei). Der Mieter erhält den Grund per E-Mail.
          </Trans>
        ) : (
          <Trans>Der Vertrag wird nicht verlängert; der Mieter erhält den Grund per E-Mail.</Trans>
        )
      }
      confirmLabel={<Trans>Vertrag beenden</Trans>}
      destructive
      busy={end.isPending}
      error={end.error ? staffErrorMessage(end.error) : undefined}
      onConfirm={() => void submit()}
    >
      <Form {...form}>
        <form noValidate onSubmit={(e) => void submit(e)}>
          <FormField
            control={form.control}
            name="reason"
            render={({ field }) => (
              <FormItem className="gap-1">
                <FormLabel>
                  <Trans>Grund</Trans>
                </FormLabel>
                <FormControl>
                  <textarea className="min-h-20 rounded-md border border-slate-300 p-2 text-sm" {...field} />
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
