import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Button } from '@/components/ui/button';
import { downloadCsv, toCsv, type CsvCell } from '@/features/admin/reports/lib/csv';

export interface Column<Row> {
  header: string;
  /** What the table shows. */
  cell: (row: Row) => ReactNode;
  /** What the CSV file holds (plain numbers, ISO days). */
  csv: (row: Row) => CsvCell;
  numeric?: boolean;
}

/** A report's table: caption, column headers, the rows; scrolls sideways on a phone (focusable, so keyboards can scroll it). */
export function ReportTable<Row>({ caption, columns, rows, empty, footer }: { caption: string; columns: Column<Row>[]; rows: Row[]; empty: string; footer?: ReactNode[] }) {
  return (
    <div className="max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`px-3 py-2 font-semibold whitespace-nowrap ${c.numeric ? 'text-right' : ''}`}>{c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr><td colSpan={columns.length} className="px-3 py-3 text-slate-600">{empty}</td></tr>
          ) : (
            rows.map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c.header} className={`px-3 py-1.5 whitespace-nowrap ${c.numeric ? 'text-right tabular-nums' : ''}`}>{c.cell(row)}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
        {footer && rows.length > 0 && (
          <tfoot className="border-t-2 border-slate-300 font-semibold">
            <tr>
              {footer.map((cell, i) => (
                <td key={i} className={`px-3 py-1.5 whitespace-nowrap ${columns[i]?.numeric ? 'text-right tabular-nums' : ''}`}>{cell}</td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** Downloads the same columns and rows as a CSV file. */
export function CsvButton<Row>({ filename, columns, rows, label }: { filename: string; columns: Column<Row>[]; rows: Row[]; label: string }) {
  return (
    <Button type="button" variant="outline" size="sm" aria-label={label} onClick={() => downloadCsv(filename, toCsv(columns.map((c) => c.header), rows.map((r) => columns.map((c) => c.csv(r)))))}>
      <Trans>CSV exportieren</Trans>
    </Button>
  );
}
