import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page, Section } from '@/components/page';
import { berlinToday, formatDay } from '@/lib/dates';
import { reportsQueryOptions, ReportLoadError, type AverageStayRow, type CheckInRow, type CountryRow, type LongTermFeeRow, type OccupancyRow, type OrderKind, type RevenueRow, type SaleCodeRow, type SizeClass } from '@/features/admin/reports/api/reports';
import { formatters } from '@/features/admin/reports/lib/format';
import { resolveRange } from '@/features/admin/reports/lib/range';
import type { RangeValues } from '@/features/admin/reports/schemas/range';
import { BarChart, type BarRow } from '@/features/admin/reports/components/bar-chart';
import { RangeForm } from '@/features/admin/reports/components/range-form';
import { CsvButton, ReportTable, type Column } from '@/features/admin/reports/components/report-table';
import { FormAlert } from '@/components/form-alert';

const sum = <T,>(rows: T[], pick: (r: T) => number) => rows.reduce((total, r) => total + pick(r), 0);

/** Groups rows by a key, keeping first-seen order. */
function groupBy<T>(rows: T[], key: (r: T) => string): [string, T[]][] {
  const map = new Map<string, T[]>();
  for (const r of rows) map.set(key(r), [...(map.get(key(r)) ?? []), r]);
  return [...map];
}

/** One report: heading, an optional note on what it counts, chart, table and its CSV download. */
function ReportSection<Row>({ id, title, note, chart, columns, rows, empty, filename, footer }: { id: string; title: string; note?: React.ReactNode; chart: React.ReactNode; columns: Column<Row>[]; rows: Row[]; empty: string; filename: string; footer?: React.ReactNode[] }) {
  const { t } = useLingui();
  return (
    <Section id={id} aria-label={title} title={title}>
      {note && <p className="text-sm text-slate-700">{note}</p>}
      {rows.length > 0 && chart}
      <ReportTable caption={title} columns={columns} rows={rows} empty={empty} footer={footer} />
      <div>
        <CsvButton filename={filename} columns={columns} rows={rows} label={t`CSV exportieren: ${title}`} />
      </div>
    </Section>
  );
}

/** Admin reports for a date range: occupancy, revenue, long-term fees, average stay, guests by country, sale codes, check-in rate (all from the public.report_* functions). */
export function ReportsPage({ onRangeChange, ...search }: { from?: string; to?: string; onRangeChange: (values: RangeValues) => void }) {
  const { t, i18n } = useLingui();
  const { from, to } = resolveRange(search.from, search.to, berlinToday());
  const locale = i18n.locale;
  const f = formatters(locale);
  const { data, error, isPending } = useQuery(reportsQueryOptions(from, to));

  const kindLabel: Record<OrderKind, string> = { overnight: t`Übernachtung`, day: t`Tagesliegeplatz`, fair: t`Messe` };
  const classLabel: Record<SizeClass, string> = { up_to_8m: t`bis 8 m`, '8_to_10m': t`8 bis 10 m`, '10_to_13m': t`10 bis 13 m`, '13_to_16m': t`13 bis 16 m`, from_16m: t`ab 16 m` };
  const monthIso = (day: string) => day.slice(0, 7);
  const file = (name: string) => `${name}_${from}_${to}.csv`;

  const occupancyColumns: Column<OccupancyRow>[] = [
    { header: t`Monat`, cell: (r) => f.month(r.month), csv: (r) => monthIso(r.month) },
    { header: t`Größenklasse`, cell: (r) => classLabel[r.size_class] ?? r.size_class, csv: (r) => classLabel[r.size_class] ?? r.size_class },
    { header: t`Liegeplätze`, numeric: true, cell: (r) => f.int(r.berths), csv: (r) => r.berths },
    { header: t`Liegeplatz-Nächte`, numeric: true, cell: (r) => f.int(r.berth_nights), csv: (r) => r.berth_nights },
    { header: t`Gebucht`, numeric: true, cell: (r) => f.int(r.booked_nights), csv: (r) => r.booked_nights },
    { header: t`Langzeitlieger`, numeric: true, cell: (r) => f.int(r.long_term_nights), csv: (r) => r.long_term_nights },
    { header: t`Gesperrt`, numeric: true, cell: (r) => f.int(r.blocked_nights), csv: (r) => r.blocked_nights },
    { header: t`Belegung`, numeric: true, cell: (r) => f.percent(r.occupancy_percent), csv: (r) => f.csvDecimal(r.occupancy_percent, 1) },
  ];
  const revenueColumns: Column<RevenueRow>[] = [
    { header: t`Monat`, cell: (r) => f.month(r.month), csv: (r) => monthIso(r.month) },
    { header: t`Art`, cell: (r) => kindLabel[r.kind], csv: (r) => kindLabel[r.kind] },
    { header: t`Buchungen`, numeric: true, cell: (r) => f.int(r.orders), csv: (r) => r.orders },
    { header: t`Netto`, numeric: true, cell: (r) => f.money(r.net_cents), csv: (r) => f.csvMoney(r.net_cents) },
    { header: t`MwSt.`, numeric: true, cell: (r) => f.money(r.vat_cents), csv: (r) => f.csvMoney(r.vat_cents) },
    { header: t`Brutto`, numeric: true, cell: (r) => f.money(r.gross_cents), csv: (r) => f.csvMoney(r.gross_cents) },
    { header: t`Davon bezahlt`, numeric: true, cell: (r) => f.money(r.paid_gross_cents), csv: (r) => f.csvMoney(r.paid_gross_cents) },
  ];
  const feeColumns: Column<LongTermFeeRow>[] = [
    { header: t`Fälligkeitsmonat`, cell: (r) => f.month(r.month), csv: (r) => monthIso(r.month) },
    { header: t`Raten`, numeric: true, cell: (r) => f.int(r.fees), csv: (r) => r.fees },
    { header: t`Netto`, numeric: true, cell: (r) => f.money(r.net_cents), csv: (r) => f.csvMoney(r.net_cents) },
    { header: t`MwSt.`, numeric: true, cell: (r) => f.money(r.vat_cents), csv: (r) => f.csvMoney(r.vat_cents) },
    { header: t`Brutto`, numeric: true, cell: (r) => f.money(r.gross_cents), csv: (r) => f.csvMoney(r.gross_cents) },
    { header: t`Davon bezahlt`, numeric: true, cell: (r) => f.money(r.paid_gross_cents), csv: (r) => f.csvMoney(r.paid_gross_cents) },
  ];
  const stayColumns: Column<AverageStayRow>[] = [
    { header: t`Art`, cell: (r) => kindLabel[r.kind], csv: (r) => kindLabel[r.kind] },
    { header: t`Buchungen`, numeric: true, cell: (r) => f.int(r.orders), csv: (r) => r.orders },
    { header: t`Nächte`, numeric: true, cell: (r) => f.int(r.nights), csv: (r) => r.nights },
    { header: t`Ø Nächte`, numeric: true, cell: (r) => f.two(r.average_nights), csv: (r) => f.csvDecimal(r.average_nights, 2) },
    { header: t`Ø Stunden`, numeric: true, cell: (r) => f.two(r.average_hours), csv: (r) => f.csvDecimal(r.average_hours, 2) },
    { header: t`Ø Bootslänge (m)`, numeric: true, cell: (r) => f.two(r.average_boat_length), csv: (r) => f.csvDecimal(r.average_boat_length, 2) },
  ];
  const countryName = (r: CountryRow) => r.country ?? t`Nicht angegeben`;
  const countryColumns: Column<CountryRow>[] = [
    { header: t`Land`, cell: countryName, csv: countryName },
    { header: t`Buchungen`, numeric: true, cell: (r) => f.int(r.orders), csv: (r) => r.orders },
    { header: t`Gäste`, numeric: true, cell: (r) => f.int(r.guests), csv: (r) => r.guests },
    { header: t`Nächte`, numeric: true, cell: (r) => f.int(r.nights), csv: (r) => r.nights },
    { header: t`Brutto`, numeric: true, cell: (r) => f.money(r.gross_cents), csv: (r) => f.csvMoney(r.gross_cents) },
  ];
  const codeColumns: Column<SaleCodeRow>[] = [
    { header: t`Code`, cell: (r) => r.code, csv: (r) => r.code },
    { header: t`Buchungen`, numeric: true, cell: (r) => f.int(r.orders), csv: (r) => r.orders },
    { header: t`Nächte`, numeric: true, cell: (r) => f.int(r.nights), csv: (r) => r.nights },
    { header: t`Nachlass`, numeric: true, cell: (r) => f.money(r.discount_cents), csv: (r) => f.csvMoney(r.discount_cents) },
    { header: t`Netto`, numeric: true, cell: (r) => f.money(r.net_cents), csv: (r) => f.csvMoney(r.net_cents) },
  ];
  const checkInColumns: Column<CheckInRow>[] = [
    { header: t`Monat`, cell: (r) => f.month(r.month), csv: (r) => monthIso(r.month) },
    { header: t`Anreisen`, numeric: true, cell: (r) => f.int(r.arrivals), csv: (r) => r.arrivals },
    { header: t`Eingecheckt`, numeric: true, cell: (r) => f.int(r.checked_in), csv: (r) => r.checked_in },
    { header: t`Check-in-Quote`, numeric: true, cell: (r) => f.percent(r.check_in_percent), csv: (r) => f.csvDecimal(r.check_in_percent, 1) },
  ];

  const errorText = (e: unknown) => {
    const reason = e instanceof ReportLoadError ? e.reason : 'unknown';
    if (reason === 'admin_only') return t`Berichte sehen nur Admins.`;
    if (reason === 'range_too_long') return t`Ein Bericht umfasst höchstens drei Jahre. Bitte einen kürzeren Zeitraum wählen.`;
    if (reason === 'invalid_range') return t`Der Zeitraum ist ungültig: Das Enddatum darf nicht vor dem Anfangsdatum liegen.`;
    return t`Die Berichte konnten nicht geladen werden. Bitte erneut versuchen.`;
  };

  const period = t`${formatDay(from, locale)} bis ${formatDay(to, locale)}`;
  const body = () => {
    if (error) return <FormAlert>{errorText(error)}</FormAlert>;
    if (isPending) return <p role="status"><Trans>Lädt…</Trans></p>;

    // Occupancy per month over all size classes, for the chart.
    const occupancyByMonth: BarRow[] = groupBy(data.occupancy, (r) => r.month).map(([month, rows]) => {
      const nights = sum(rows, (r) => r.berth_nights);
      const used = sum(rows, (r) => r.booked_nights + r.long_term_nights);
      const percent = nights > 0 ? Math.round((1000 * used) / nights) / 10 : 0;
      return { label: f.month(month), segments: [{ value: percent, series: 0 }], valueText: f.percent(percent) };
    });
    const best = occupancyByMonth.reduce<BarRow | undefined>((a, b) => (!a || (b.segments[0]?.value ?? 0) > (a.segments[0]?.value ?? 0) ? b : a), undefined);
    const revenueByMonth = groupBy(data.revenue, (r) => r.month).map(([month, rows]) => ({ month, net: sum(rows, (r) => r.net_cents), vat: sum(rows, (r) => r.vat_cents), gross: sum(rows, (r) => r.gross_cents) }));
    const revenueTotal = { orders: sum(data.revenue, (r) => r.orders), net: sum(data.revenue, (r) => r.net_cents), vat: sum(data.revenue, (r) => r.vat_cents), gross: sum(data.revenue, (r) => r.gross_cents), paid: sum(data.revenue, (r) => r.paid_gross_cents) };
    const feeTotal = { fees: sum(data.longTermFees, (r) => r.fees), net: sum(data.longTermFees, (r) => r.net_cents), vat: sum(data.longTermFees, (r) => r.vat_cents), gross: sum(data.longTermFees, (r) => r.gross_cents), paid: sum(data.longTermFees, (r) => r.paid_gross_cents) };
    const bothGross = f.money(revenueTotal.gross + feeTotal.gross);
    const stays = data.averageStay.filter((r) => r.average_nights !== null);
    const arrivals = sum(data.checkIn, (r) => r.arrivals);
    const checkedIn = sum(data.checkIn, (r) => r.checked_in);
    const totalRate = arrivals > 0 ? Math.round((1000 * checkedIn) / arrivals) / 10 : null;

    return (
      <>
        <ReportSection
          id="occupancy"
          title={t`Belegung nach Monat und Größenklasse`}
          rows={data.occupancy}
          columns={occupancyColumns}
          empty={t`Keine Liegeplätze im Zeitraum.`}
          filename={file(t`belegung`)}
          chart={<BarChart title={t`Belegung je Monat (alle Größenklassen)`} description={best ? t`Balken je Monat, Anteil der belegten Liegeplatz-Nächte (Buchungen und Langzeitlieger); am höchsten: ${best.label} mit ${best.valueText}.` : ''} rows={occupancyByMonth} max={100} />}
        />
        <ReportSection
          id="revenue"
          title={t`Umsatz nach Monat und Art`}
          rows={data.revenue}
          columns={revenueColumns}
          empty={t`Keine Buchungen im Zeitraum.`}
          filename={file(t`umsatz`)}
          note={<Trans>Buchungen von Gastliegeplätzen nach Anreisemonat. Die Liegeplatzgebühren der Langzeitlieger sind hier nicht enthalten: Sie stehen getrennt im nächsten Bericht.</Trans>}
          footer={[t`Summe`, '', f.int(revenueTotal.orders), f.money(revenueTotal.net), f.money(revenueTotal.vat), f.money(revenueTotal.gross), f.money(revenueTotal.paid)]}
          chart={
            <BarChart
              title={t`Bruttoumsatz je Monat`}
              description={t`Balken je Monat aus Netto (voll) und MwSt. (schraffiert); Summe brutto ${f.money(revenueTotal.gross)}.`}
              legend={[t`Netto`, t`MwSt.`]}
              rows={revenueByMonth.map((m) => ({ label: f.month(m.month), segments: [{ value: m.net, series: 0 }, { value: m.vat, series: 1 }], valueText: f.money(m.gross) }))}
            />
          }
        />
        <ReportSection
          id="long-term-fees"
          title={t`Liegeplatzgebühren (Langzeitlieger)`}
          rows={data.longTermFees}
          columns={feeColumns}
          empty={t`Keine Raten im Zeitraum fällig.`}
          filename={file(t`liegeplatzgebuehren`)}
          note={<Trans>Die Raten der Langzeitlieger-Verträge nach Fälligkeitsmonat, wie ihre Rechnungen sie ausweisen; „Davon bezahlt“ sind die eingegangenen Zahlungen abzüglich Rücklastschriften und Erstattungen. Nicht im Umsatz der Buchungen oben enthalten; beide zusammen brutto {bothGross}.</Trans>}
          footer={[t`Summe`, f.int(feeTotal.fees), f.money(feeTotal.net), f.money(feeTotal.vat), f.money(feeTotal.gross), f.money(feeTotal.paid)]}
          chart={
            <BarChart
              title={t`Liegeplatzgebühren brutto je Fälligkeitsmonat`}
              description={t`Balken je Monat aus Netto (voll) und MwSt. (schraffiert); Summe brutto ${f.money(feeTotal.gross)}.`}
              legend={[t`Netto`, t`MwSt.`]}
              rows={data.longTermFees.map((m) => ({ label: f.month(m.month), segments: [{ value: m.net_cents, series: 0 }, { value: m.vat_cents, series: 1 }], valueText: f.money(m.gross_cents) }))}
            />
          }
        />
        <ReportSection
          id="stay"
          title={t`Durchschnittliche Aufenthaltsdauer`}
          rows={data.averageStay}
          columns={stayColumns}
          empty={t`Keine Buchungen im Zeitraum.`}
          filename={file(t`aufenthaltsdauer`)}
          chart={<BarChart title={t`Durchschnittliche Nächte je Art`} description={t`Balken je Art des Aufenthalts mit den durchschnittlichen Nächten; Tagesliegeplätze stehen mit ihren Stunden in der Tabelle.`} rows={stays.map((r) => ({ label: kindLabel[r.kind], segments: [{ value: r.average_nights ?? 0, series: 0 }], valueText: t`${f.two(r.average_nights)} Nächte` }))} />}
        />
        <ReportSection
          id="countries"
          title={t`Gäste nach Land`}
          rows={data.countries}
          columns={countryColumns}
          empty={t`Keine Buchungen im Zeitraum.`}
          filename={file(t`gaeste-nach-land`)}
          chart={<BarChart title={t`Gäste je Land`} description={t`Balken je Land mit der Zahl der Gäste (verschiedene E-Mail-Adressen).`} rows={data.countries.map((r) => ({ label: countryName(r), segments: [{ value: r.guests, series: 0 }], valueText: f.int(r.guests) }))} />}
        />
        <ReportSection
          id="sale-codes"
          title={t`Nutzung der Aktionscodes`}
          rows={data.saleCodes}
          columns={codeColumns}
          empty={t`Keine Aktionscodes angelegt.`}
          filename={file(t`verkaufscodes`)}
          chart={<BarChart title={t`Buchungen je Aktionscode`} description={t`Balken je Code mit der Zahl der Buchungen, die ihn genutzt haben.`} rows={data.saleCodes.map((r) => ({ label: r.code, segments: [{ value: r.orders, series: 0 }], valueText: f.int(r.orders) }))} />}
        />
        <ReportSection
          id="check-in"
          title={t`Check-in-Quote`}
          rows={data.checkIn}
          columns={checkInColumns}
          empty={t`Keine Anreisen bis heute im Zeitraum.`}
          filename={file(t`check-in-quote`)}
          footer={[t`Summe`, f.int(arrivals), f.int(checkedIn), f.percent(totalRate)]}
          chart={<BarChart title={t`Check-in-Quote je Monat`} description={t`Balken je Monat mit dem Anteil der Anreisen bis heute, die eingecheckt haben; insgesamt ${f.percent(totalRate)}.`} max={100} rows={data.checkIn.map((r) => ({ label: f.month(r.month), segments: [{ value: r.check_in_percent ?? 0, series: 0 }], valueText: f.percent(r.check_in_percent) }))} />}
        />
      </>
    );
  };

  return (
    <Page title={t`Berichte`} lead={<Trans>Zahlen der Saison aus der Datenbank, für {period} (Anreisetag in Düsseldorfer Zeit). Verkäufe sind bestätigte, eingecheckte und abgeschlossene Buchungen.</Trans>}>
      <RangeForm key={`${from}/${to}`} from={from} to={to} onSubmit={onRangeChange} />
      <nav aria-label={t`Zu den Berichten`} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        {[
          ['occupancy', t`Belegung`], ['revenue', t`Umsatz`], ['long-term-fees', t`Liegeplatzgebühren`], ['stay', t`Aufenthaltsdauer`], ['countries', t`Gäste nach Land`], ['sale-codes', t`Aktionscodes`], ['check-in', t`Check-in-Quote`],
        ].map(([id, label]) => (
          <a key={id} href={`#${id}`} className="text-primary-dark underline underline-offset-2">{label}</a>
        ))}
      </nav>
      {body()}
    </Page>
  );
}
