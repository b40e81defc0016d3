import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { fetchAll } from '@/lib/fetch-all';
import type { Tables } from '@/lib/database.types';
import type { HoursValues } from '@/features/harbour/hours/schemas/hours';

/**
 * minutes is a generated column (end - start - break) of not-null columns, so never null; the
 * catalog reports generated columns nullable, hence `number | null` in the generated row.
 */
type HoursOverride = { minutes: number };

/** One shift as stored (minutes = end - start - break, computed by the database); times as HH:mm. */
export type HoursEntry = Pick<
  Tables<'working_hours'>,
  'id' | 'user_id' | 'work_date' | 'start_time' | 'end_time' | 'break_minutes' | 'note'
> &
  HoursOverride;

export interface Person {
  id: string;
  name: string;
}

export const hoursKeys = {
  all: ['harbour', 'hours'] as const,
  month: (month: string, person: string | undefined) => ['harbour', 'hours', month, person ?? 'all'] as const,
  people: () => ['harbour', 'hours', 'people'] as const,
};

/** yyyy-MM -> [first day, first day of the next month). */
export function monthBounds(month: string): { from: string; until: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { from: `${month}-01`, until: `${next}-01` };
}

/** The month before or after a yyyy-MM month. */
export function shiftMonth(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + delta;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** A month's shifts, by day and start (RLS: staff get their own, admins everyone's; person narrows it). */
export const hoursQueryOptions = (month: string, person?: string) =>
  queryOptions({
    queryKey: hoursKeys.month(month, person),
    queryFn: async (): Promise<HoursEntry[]> => {
      const supabase = await getSupabase();
      const { from, until } = monthBounds(month);
      const shifts = () => {
        const query = supabase
          .from('working_hours')
          .select('id, user_id, work_date, start_time, end_time, break_minutes, minutes, note')
          .gte('work_date', from)
          .lt('work_date', until);
        return person ? query.eq('user_id', person) : query;
      };
      // The month is shown whole (and exported): paged past max_rows (1,000 rows per answer).
      const data = await fetchAll((lo, hi) =>
        shifts().order('work_date').order('start_time').order('id').range(lo, hi).overrideTypes<HoursOverride[]>(),
      );
      return data.map((row) => ({ ...row, start_time: row.start_time.slice(0, 5), end_time: row.end_time.slice(0, 5) }));
    },
  });

/** Everyone with a staff role, by name (admins: to filter and name the rows of the export). */
export const peopleQueryOptions = () =>
  queryOptions({
    queryKey: hoursKeys.people(),
    queryFn: async (): Promise<Person[]> => {
      const supabase = await getSupabase();
      const roles = await supabase.from('user_roles').select('user_id').or('admin.eq.true,harbor.eq.true');
      if (roles.error) throw roles.error;
      const ids = (roles.data ?? []).map((r) => r.user_id);
      if (ids.length === 0) return [];
      const profiles = await supabase.from('profiles').select('id, first_name, last_name, email').in('id', ids);
      if (profiles.error) throw profiles.error;
      return (profiles.data ?? [])
        .map((p) => ({ id: p.id, name: [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email || p.id }))
        .sort((a, b) => a.name.localeCompare(b.name, 'de'));
    },
    staleTime: 300_000,
  });

export type HoursError = 'overlap' | 'closed' | 'invalid' | 'failed';

/** What went wrong, in terms the form can say (23P01 overlap, 42501 closed month, 23514 a check). */
export function hoursError(error: unknown): HoursError {
  const code = (error as { code?: string } | null)?.code;
  if (code === '23P01') return 'overlap';
  if (code === '42501') return 'closed';
  if (code === '23514' || code === '22P02' || code === '22007' || code === '22008') return 'invalid';
  return 'failed';
}

/** Records a shift of the signed-in person, or changes one (RLS: own entries in open months; admins any). */
export async function saveHours(values: HoursValues, id?: string): Promise<void> {
  const supabase = await getSupabase();
  const row = {
    work_date: values.work_date,
    start_time: values.start_time,
    end_time: values.end_time,
    break_minutes: values.break_minutes,
    note: values.note || null,
  };
  const result = id
    ? await supabase.from('working_hours').update(row).eq('id', id).select('id')
    : await supabase.from('working_hours').insert(row).select('id');
  if (result.error) throw result.error;
  // An update RLS does not allow changes no row and reports no error.
  if ((result.data ?? []).length === 0) throw Object.assign(new Error('not allowed'), { code: '42501' });
}

export async function deleteHours(id: string): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.from('working_hours').delete().eq('id', id).select('id');
  if (error) throw error;
  if ((data ?? []).length === 0) throw Object.assign(new Error('not allowed'), { code: '42501' });
}

/** Minutes as H:MM (e.g. 7:30). */
export function formatMinutes(minutes: number): string {
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** Minutes as decimal hours with two places, German or English number format. */
export function formatDecimalHours(minutes: number, locale: string): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'de-DE', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(minutes / 60);
}

/**
 * One CSV field (RFC 4180): quoted when it holds the separator, a quote or a line break, quotes
 * doubled; a leading = + - @ (or tab/CR) is prefixed with ' so a spreadsheet never runs it as a
 * formula.
 */
export function csvField(value: string | number | null | undefined, separator = ';'): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /["\r\n]/.test(text) || text.includes(separator) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface CsvLabels {
  person: string;
  date: string;
  start: string;
  end: string;
  breakMinutes: string;
  minutes: string;
  hours: string;
  note: string;
  total: string;
}

/**
 * A month of shifts for Excel: UTF-8 with a BOM (so umlauts survive), ';' between fields and
 * CRLF between rows, decimal hours with a comma in German (as German Excel reads numbers) and a
 * dot in English, dates ISO (yyyy-MM-dd, which Excel reads in both), a total per person.
 */
export function hoursCsv(entries: HoursEntry[], names: Map<string, string>, labels: CsvLabels, locale: string): string {
  const rows: string[][] = [
    [labels.person, labels.date, labels.start, labels.end, labels.breakMinutes, labels.minutes, labels.hours, labels.note],
  ];
  const sorted = [...entries].sort(
    (a, b) =>
      (names.get(a.user_id) ?? a.user_id).localeCompare(names.get(b.user_id) ?? b.user_id, 'de') ||
      a.work_date.localeCompare(b.work_date) ||
      a.start_time.localeCompare(b.start_time),
  );
  const totals = new Map<string, number>();
  for (const e of sorted) {
    totals.set(e.user_id, (totals.get(e.user_id) ?? 0) + e.minutes);
    rows.push([
      names.get(e.user_id) ?? e.user_id,
      e.work_date,
      e.start_time,
      e.end_time,
      String(e.break_minutes),
      String(e.minutes),
      formatDecimalHours(e.minutes, locale),
      e.note ?? '',
    ]);
  }
  for (const [user, minutes] of totals) {
    rows.push([`${labels.total}: ${names.get(user) ?? user}`, '', '', '', '', String(minutes), formatDecimalHours(minutes, locale), '']);
  }
  return '\uFEFF' + rows.map((r) => r.map((f) => csvField(f)).join(';')).join('\r\n') + '\r\n';
}
