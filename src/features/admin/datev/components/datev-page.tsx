import { useState } from 'react';
import { useForm, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Download, FileArchive } from 'lucide-react';
import { Page, Section } from '@/components/page';
import { PathLink } from '@/components/layout/path-link';
import { Button } from '@/components/ui/button';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { berlinToday } from '@/lib/dates';
import {
  ArchiveFailure,
  buildDatevFile,
  datevSettingsQueryOptions,
  DatevError,
  downloadFile,
  downloadZip,
  fetchInvoiceArchive,
  type ArchiveError,
  type DatevExportError,
} from '@/features/admin/datev/api/datev';
import { archiveRangeSchema, datevRangeSchema, type ArchiveRangeValues, type DatevRangeValues } from '@/features/admin/datev/schemas/datev';
import { DatePicker } from '@/components/ui/date-picker';
import { FormAlert } from '@/components/form-alert';

/** The two days of a range form (the DATEV file and the archive ask the same way). */
function RangeFields({ control }: { control: Control<{ from: string; to: string }> }) {
  return (
    <>
      <FormField
        control={control}
        name="from"
        render={({ field }) => (
          <FormItem>
            <FormLabel>
              <Trans>Von</Trans>
            </FormLabel>
            <FormControl>
              <DatePicker className="w-44" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        control={control}
        name="to"
        render={({ field }) => (
          <FormItem className="max-w-sm">
            <FormLabel>
              <Trans>Bis einschließlich</Trans>
            </FormLabel>
            <FormControl>
              <DatePicker className="w-44" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}

/** The previous calendar month (DATEV recommends one file per posting period). */
export function previousMonth(today: string): DatevRangeValues {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const y = month === 1 ? year - 1 : year;
  const m = month === 1 ? 12 : month - 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { from: `${y}-${mm}-01`, to: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

type State = { ok: true; lines: number; name: string } | { ok: false; message: string } | undefined;

/** /account/admin/datev: a date range and the download of its DATEV Buchungsstapel (EXTF). */
export function DatevPage() {
  const { t, i18n } = useLingui();
  const { data: settings } = useSuspenseQuery(datevSettingsQueryOptions());
  const [state, setState] = useState<State>();
  const form = useForm<DatevRangeValues>({
    resolver: zodResolver(datevRangeSchema(settings.fiscal_year_start)),
    defaultValues: previousMonth(berlinToday()),
  });

  const reasons: Record<DatevExportError, string> = {
    admin_only: t`Dafür fehlen Ihnen die Rechte.`,
    invalid_range: t`Das Enddatum darf nicht vor dem Anfangsdatum liegen`,
    datev_range_fiscal_year: t`Ein DATEV-Buchungsstapel umfasst höchstens ein Wirtschaftsjahr. Bitte exportieren Sie jedes Wirtschaftsjahr einzeln.`,
    datev_vat_rate: t`Im Zeitraum gibt es Belege mit einem Steuersatz, für den kein Konto eingestellt ist (nur 19 %, 7 % und 0 %).`,
    unknown: t`Der Export ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.`,
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      const file = await buildDatevFile(v.from, v.to, `Hafen ${v.from.slice(0, 7)}`);
      downloadFile(file);
      setState({ ok: true, lines: file.lines, name: file.name });
    } catch (e) {
      setState({ ok: false, message: reasons[e instanceof DatevError ? e.reason : 'unknown'] });
    }
  });

  const [mm, dd] = settings.fiscal_year_start.split('-');
  const fiscal = i18n.locale === 'en' ? `${dd}/${mm}` : `${dd}.${mm}.`;
  return (
    <Page
      title={t`DATEV-Export`}
      lead={t`Buchungsstapel für die Steuerkanzlei: Rechnungen, Stornorechnungen und Gutschriften mit ihren Erlösen je Steuersatz sowie alle Zahlungen und Erstattungen eines Zeitraums.`}
    >
      <Section title={t`Buchungsstapel herunterladen`} aria-label={t`Buchungsstapel herunterladen`}>
        <p className="max-w-prose text-sm text-slate-700">
          <Trans>
            Die Datei (EXTF, Formatversion 13, Windows-1252) kann die Kanzlei direkt in DATEV Rechnungswesen einlesen. Ein Stapel umfasst
            höchstens ein Wirtschaftsjahr; am besten exportieren Sie Monat für Monat.
          </Trans>
        </p>
        <Form {...form}>
          <form
            aria-label={t`Zeitraum`}
            noValidate
            onSubmit={onSubmit}
            className="flex flex-wrap items-start gap-3 rounded-lg border border-slate-200 bg-white p-3"
          >
            <RangeFields control={form.control} />
            <Button type="submit" className="mt-7" disabled={form.formState.isSubmitting}>
              <Download className="size-4" aria-hidden /> <Trans>DATEV-Datei herunterladen</Trans>
            </Button>
          </form>
        </Form>
        <div aria-live="polite">
          {state?.ok && (
            <p role="status" className="text-sm text-green-800">
              <Trans>
                {state.name} wurde erstellt: <Plural value={state.lines} one="# Buchungszeile" other="# Buchungszeilen" />.
              </Trans>
            </p>
          )}
          {state && !state.ok && <FormAlert className="text-sm">{state.message}</FormAlert>}
        </div>
      </Section>
      <ArchiveSection />
      <Section title={t`Einstellungen`} aria-label={t`DATEV-Einstellungen`}>
        <dl className="grid max-w-xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-slate-600">
            <Trans>Beraternummer</Trans>
          </dt>
          <dd>{settings.consultant_number}</dd>
          <dt className="text-slate-600">
            <Trans>Mandantennummer</Trans>
          </dt>
          <dd>{settings.client_number}</dd>
          <dt className="text-slate-600">
            <Trans>Beginn des Wirtschaftsjahrs</Trans>
          </dt>
          <dd>{fiscal}</dd>
          <dt className="text-slate-600">
            <Trans>Erlöse 19 % / 7 % / 0 %</Trans>
          </dt>
          <dd>
            {settings.account_revenue_19} / {settings.account_revenue_7} / {settings.account_revenue_0}
          </dd>
          <dt className="text-slate-600">
            <Trans>Debitor</Trans>
          </dt>
          <dd>{settings.account_debtor}</dd>
          <dt className="text-slate-600">
            <Trans>Kasse / Bank / Geldtransit</Trans>
          </dt>
          <dd>
            {settings.account_cash} / {settings.account_bank} / {settings.account_transit}
          </dd>
        </dl>
        <p className="text-sm">
          <PathLink path="/account/admin/settings" className="font-medium text-primary-dark underline underline-offset-2">
            <Trans>Nummern und Konten ändern</Trans>
          </PathLink>
        </p>
      </Section>
    </Page>
  );
}

/**
 * The PDF archive of a range: every stored document (invoices, cancellations, credit notes, desk
 * receipts) as issued, one ZIP from the invoice-archive edge function (admins only, at most a year).
 */
function ArchiveSection() {
  const { t } = useLingui();
  const [state, setState] = useState<State>();
  const form = useForm<ArchiveRangeValues>({ resolver: zodResolver(archiveRangeSchema()), defaultValues: previousMonth(berlinToday()) });
  const reasons: Record<ArchiveError, string> = {
    admin_only: t`Dafür fehlen Ihnen die Rechte.`,
    invalid_range: t`Das Enddatum darf nicht vor dem Anfangsdatum liegen`,
    archive_range_too_long: t`Ein Archiv umfasst höchstens ein Jahr (366 Tage). Bitte teilen Sie den Zeitraum auf.`,
    no_documents: t`In diesem Zeitraum wurden keine Belege ausgestellt.`,
    unknown: t`Das Archiv ist gerade nicht möglich. Bitte versuchen Sie es später noch einmal.`,
  };
  const onSubmit = form.handleSubmit(async (v) => {
    setState(undefined);
    try {
      const file = await fetchInvoiceArchive(v.from, v.to);
      downloadZip(file);
      setState({ ok: true, lines: file.lines, name: file.name });
    } catch (e) {
      setState({ ok: false, message: reasons[e instanceof ArchiveFailure ? e.reason : 'unknown'] });
    }
  });
  return (
    <Section title={t`Belege als PDF-Archiv`} aria-label={t`Belege als PDF-Archiv`}>
      <p className="max-w-prose text-sm text-slate-700">
        <Trans>
          Alle im Zeitraum ausgestellten Belege (Rechnungen, Stornorechnungen, Gutschriften und Quittungen des Verkaufs am Schalter) als PDF
          in einer ZIP-Datei, genau so, wie sie ausgestellt wurden. Höchstens ein Jahr; ein Jahr kann einige Minuten dauern.
        </Trans>
      </p>
      <Form {...form}>
        <form
          aria-label={t`Belegarchiv`}
          noValidate
          onSubmit={onSubmit}
          className="flex flex-wrap items-start gap-3 rounded-lg border border-slate-200 bg-white p-3"
        >
          <RangeFields control={form.control} />
          <Button type="submit" className="mt-7" disabled={form.formState.isSubmitting}>
            <FileArchive className="size-4" aria-hidden />{' '}
            {form.formState.isSubmitting ? <Trans>Archiv wird erstellt …</Trans> : <Trans>PDF-Archiv herunterladen</Trans>}
          </Button>
        </form>
      </Form>
      <div aria-live="polite">
        {state?.ok && (
          <p role="status" className="text-sm text-green-800">
            <Trans>
              {state.name} wurde erstellt: <Plural value={state.lines} one="# Beleg" other="# Belege" />.
            </Trans>
          </p>
        )}
        {state && !state.ok && <FormAlert className="text-sm">{state.message}</FormAlert>}
      </div>
    </Section>
  );
}
