import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import { fetchAll } from '@/lib/fetch-all';
import { Refused } from '@/lib/refused';
import type { CalendarEntry } from '@/features/harbour/calendar';
import { adminPlaceKeys } from '@/features/admin/shared/place-keys';
import { saveColumn, type Column, type ColumnInput } from '@/features/admin/additional-places';

/** A berth's state on the day: free, or the first occupation the calendar lists. */
export type BerthState = 'free' | 'reservation' | 'rent' | 'maintenance' | 'long_term';

export interface MapBerth {
  id: string;
  name: string;
  pier: string | null;
  length: number;
  width: number;
  one_day: boolean;
  position: [number, number] | null;
  state: BerthState;
  entries: CalendarEntry[];
}

export interface MapData {
  berths: MapBerth[];
  columns: Column[];
}

/** The plan is 1000 x 600 units (the database checks positions against it); drawn by the shared HarbourPlan. */
export { PLAN } from '@/features/booking';

const PRIORITY: Record<BerthState, number> = { rent: 4, reservation: 3, long_term: 2, maintenance: 1, free: 0 };

export function stateOf(entries: CalendarEntry[]): BerthState {
  let best: BerthState = 'free';
  for (const e of entries) {
    const s: BerthState = e.type === 'service' ? 'maintenance' : e.type;
    if (PRIORITY[s] > PRIORITY[best]) best = s;
  }
  return best;
}

/** Berths (not archived) with their state on `day` from the harbour calendar, and the columns. Staff only. */
export const mapQueryOptions = (day: string) =>
  queryOptions({
    queryKey: adminPlaceKeys.map(day),
    queryFn: async (): Promise<MapData> => {
      const supabase = await getSupabase();
      // Berths and columns paged past max_rows (1,000 rows per answer); calendar() is one row per day.
      const [places, calendar, columns] = await Promise.all([
        fetchAll((lo, hi) =>
          supabase
            .from('places')
            .select('id, name, pier, length, width, one_day, position')
            .eq('archived', false)
            .order('name')
            .order('id')
            .range(lo, hi),
        ),
        supabase.rpc('calendar', { p_from: day, p_to: day }),
        fetchAll((lo, hi) =>
          supabase.from('additional_places').select('id, type, name, position, image_path').order('name').order('id').range(lo, hi),
        ),
      ]);
      if (calendar.error) throw calendar.error;
      const rows = (calendar.data ?? []) as unknown as { day: string; places: CalendarEntry[] }[];
      const byPlace = new Map<string, CalendarEntry[]>();
      for (const row of rows) for (const e of row.places) byPlace.set(e.place_id, [...(byPlace.get(e.place_id) ?? []), e]);
      const berths = (places as Omit<MapBerth, 'state' | 'entries'>[]).map((p) => {
        const entries = byPlace.get(p.id) ?? [];
        return { ...p, entries, state: stateOf(entries) };
      });
      return { berths, columns: columns as Column[] };
    },
  });

/** Create or move a column from the plan (saveColumn); throws Refused<ColumnSaveError>; refreshes the admin's berth queries and the day's map. */
export function useSaveMapColumn(day: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ input, id }: { input: ColumnInput; id?: string }) => {
      const result = await saveColumn(input, id);
      if ('error' in result) throw new Refused(result.error);
      return result.id;
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminPlaceKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminPlaceKeys.map(day) }),
      ]),
  });
}
