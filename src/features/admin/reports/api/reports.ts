import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { reportKeys } from '@/features/admin/reports/api/keys';
import { errorCode, sqlState } from '@/lib/errors/codes';

export type OrderKind = 'day' | 'overnight' | 'fair';
export type SizeClass = 'up_to_8m' | '8_to_10m' | '10_to_13m' | '13_to_16m' | 'from_16m';

export interface OccupancyRow { month: string; size_class: SizeClass; berths: number; berth_nights: number; booked_nights: number; long_term_nights: number; blocked_nights: number; occupancy_percent: number | null }
export interface RevenueRow { month: string; kind: OrderKind; orders: number; net_cents: number; vat_cents: number; gross_cents: number; paid_gross_cents: number }
export interface AverageStayRow { kind: OrderKind; orders: number; nights: number; average_nights: number | null; average_hours: number | null; average_boat_length: number | null }
export interface CountryRow { country: string | null; orders: number; guests: number; nights: number; gross_cents: number }
export interface SaleCodeRow { code: string; orders: number; nights: number; discount_cents: number; net_cents: number }
export interface CheckInRow { month: string; arrivals: number; checked_in: number; check_in_percent: number | null }
/** Long-term fees per due month (public.report_long_term_fees): instalments, their invoices' net, VAT and gross, what the ledger holds. */
export interface LongTermFeeRow { month: string; fees: number; net_cents: number; vat_cents: number; gross_cents: number; paid_gross_cents: number }

export interface Reports {
  occupancy: OccupancyRow[];
  revenue: RevenueRow[];
  averageStay: AverageStayRow[];
  countries: CountryRow[];
  saleCodes: SaleCodeRow[];
  checkIn: CheckInRow[];
  longTermFees: LongTermFeeRow[];
}

/** Why a report could not be loaded: the database's own refusals, in words the page can show. */
export type ReportError = 'admin_only' | 'invalid_range' | 'range_too_long' | 'unknown';

export class ReportLoadError extends Error {
  constructor(readonly reason: ReportError, message: string) {
    super(message);
  }
}

/** The refusal's catalogue code (src/lib/errors), never a pattern on the message text. */
const reasonOf = (error: unknown): ReportError => {
  const code = errorCode(error);
  if (code === 'admin_only' || sqlState(error) === '42501') return 'admin_only';
  return code === 'range_too_long' || code === 'invalid_range' ? code : 'unknown';
};

// int8 and numeric columns arrive as JSON numbers or strings depending on the engine path: make them numbers.
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));

function normalise<T>(rows: unknown, numeric: readonly string[], nullable: readonly string[] = []): T[] {
  return ((rows ?? []) as Record<string, unknown>[]).map((row) => {
    const out: Record<string, unknown> = { ...row };
    for (const key of numeric) out[key] = num(row[key]);
    for (const key of nullable) out[key] = numOrNull(row[key]);
    return out as T;
  });
}

/** The seven report functions (public.report_*) for one Berlin date range, in parallel; the database refuses non-admins. */
export async function fetchReports(from: string, to: string): Promise<Reports> {
  const supabase = await getSupabase();
  const range = { p_from: from, p_to: to };
  const results = await Promise.all([
    supabase.rpc('report_occupancy', range),
    supabase.rpc('report_revenue', range),
    supabase.rpc('report_average_stay', range),
    supabase.rpc('report_guests_by_country', range),
    supabase.rpc('report_sale_codes', range),
    supabase.rpc('report_check_in_rate', range),
    supabase.rpc('report_long_term_fees', range),
  ]);
  for (const r of results) if (r.error) throw new ReportLoadError(reasonOf(r.error), r.error.message);
  const [occupancy, revenue, averageStay, countries, saleCodes, checkIn, longTermFees] = results.map((r) => r.data);
  return {
    occupancy: normalise<OccupancyRow>(occupancy, ['berths', 'berth_nights', 'booked_nights', 'long_term_nights', 'blocked_nights'], ['occupancy_percent']),
    revenue: normalise<RevenueRow>(revenue, ['orders', 'net_cents', 'vat_cents', 'gross_cents', 'paid_gross_cents']),
    averageStay: normalise<AverageStayRow>(averageStay, ['orders', 'nights'], ['average_nights', 'average_hours', 'average_boat_length']),
    countries: normalise<CountryRow>(countries, ['orders', 'guests', 'nights', 'gross_cents']),
    saleCodes: normalise<SaleCodeRow>(saleCodes, ['orders', 'nights', 'discount_cents', 'net_cents']),
    checkIn: normalise<CheckInRow>(checkIn, ['arrivals', 'checked_in'], ['check_in_percent']),
    longTermFees: normalise<LongTermFeeRow>(longTermFees, ['fees', 'net_cents', 'vat_cents', 'gross_cents', 'paid_gross_cents']),
  };
}

export const reportsQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: reportKeys.range(from, to),
    queryFn: () => fetchReports(from, to),
    staleTime: 60_000,
    retry: false,
  });
