import { queryOptions } from '@tanstack/react-query';
import { getSupabase } from '@/lib/auth';
import type { Database, Tables } from '@/lib/database.types';
import { addDaysIso, berlinToday } from '@/lib/dates';
import type { Order, OrderJson } from '@/features/orders';
import { calendarEntries, calendarPlaces } from '@/features/harbour/calendar';
import type { InboxKind } from '@/features/harbour/inbox';
import { harbourKeys } from '@/features/harbour/shared/keys';
import { berlinDayStart } from '@/features/harbour/shared/dates';

export type OverviewOrder = Pick<
  Order,
  | 'id'
  | 'starts_at'
  | 'ends_at'
  | 'status'
  | 'payment_status'
  | 'price_cents'
  | 'place_snapshot'
  | 'boat'
  | 'person'
  | 'expires_at'
  | 'checked_in_at'
>;

export interface Overview {
  /** Today's arrivals: those still expected; `arrived` those already checked in (or gone again). */
  arrivals: OverviewOrder[];
  arrived: OverviewOrder[];
  departures: OverviewOrder[];
  checkedIn: OverviewOrder[];
  pendingPayments: OverviewOrder[];
  expiringSoon: OverviewOrder[];
  /** Active berths with no occupation (booking, rent, block, long-term holder) at this moment. */
  freeNow: { id: string; name: string }[];
  /** Open contact messages and service requests, newest first (the first few), and how many are open. */
  openMessages: OverviewMessage[];
  openMessagesTotal: number;
  /** Open long-term applications, newest first (names only: the details are for admins), and how many. */
  applications: OverviewApplication[];
  applicationsTotal: number;
  /** Orders where the harbour holds money that must go back (oldest first, the first few), and how many. */
  moneyToReturn: OverviewMoneyToReturn[];
  moneyToReturnTotal: number;
}

export type OverviewMessage = Pick<Tables<'contact_messages'>, 'id' | 'service' | 'name' | 'created_at'> & { kind: InboxKind };

/** A row of open_long_term_applications; place_name is null without a named berth (RETURNS TABLE columns are typed not-null). */
export type OverviewApplication = Omit<
  Database['public']['Functions']['open_long_term_applications']['Returns'][number],
  'open_total' | 'place_name'
> & {
  place_name: string | null;
};

/** A row of money_to_return; the bigint cents are JSON numbers (made sure of in the query). */
export type OverviewMoneyToReturn = Omit<
  Database['public']['Functions']['money_to_return']['Returns'][number],
  'open_total' | 'place_name'
> & {
  place_name: string | null;
};

/** How many open messages and applications the overview names. */
export const OVERVIEW_LIST = 10;

const COLUMNS = 'id, starts_at, ends_at, status, payment_status, price_cents, place_snapshot, boat, person, expires_at, checked_in_at';
/** Unverified orders expiring within this many hours count as "about to expire". */
export const EXPIRING_HOURS = 24;

/** Today's harbour at a glance (staff; RLS lets staff read all orders, nobody else gets others' rows). */
export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: harbourKeys.overview(),
    queryFn: async (): Promise<Overview> => {
      const supabase = await getSupabase();
      const today = berlinToday();
      const start = berlinDayStart(today);
      const end = berlinDayStart(addDaysIso(today, 1));
      const now = new Date();
      const soon = new Date(now.getTime() + EXPIRING_HOURS * 3_600_000);
      const orders = () => supabase.from('orders').select(COLUMNS);
      // jsonb columns: the generated row says Json (see OrderJson).
      type OverviewJson = Pick<OrderJson, 'place_snapshot' | 'boat' | 'person'>[];
      const results = await Promise.all([
        orders()
          .gte('starts_at', start)
          .lt('starts_at', end)
          .in('status', ['unverified', 'confirmed', 'checked_in', 'completed'])
          .order('starts_at')
          .limit(200)
          .overrideTypes<OverviewJson>(),
        orders()
          .gt('ends_at', start)
          .lte('ends_at', end)
          .in('status', ['confirmed', 'checked_in', 'completed'])
          .order('ends_at')
          .limit(200)
          .overrideTypes<OverviewJson>(),
        orders().eq('status', 'checked_in').order('ends_at').limit(200).overrideTypes<OverviewJson>(),
        // Guests to collect from: stays not over before today (older debts belong to the orders list).
        orders()
          .eq('payment_status', 'pending')
          .in('status', ['confirmed', 'checked_in', 'completed'])
          .gt('ends_at', start)
          .order('starts_at')
          .limit(50)
          .overrideTypes<OverviewJson>(),
        orders()
          .eq('status', 'unverified')
          .gt('expires_at', now.toISOString())
          .lte('expires_at', soon.toISOString())
          .order('expires_at')
          .limit(50)
          .overrideTypes<OverviewJson>(),
      ]);
      for (const r of results) if (r.error) throw r.error;
      // Berths and today's occupations are paged past max_rows (1,000 rows per answer): a cut list
      // would show taken berths as free.
      const [places, calendar, messages, applications, money] = await Promise.all([
        calendarPlaces(supabase),
        calendarEntries(supabase, today, today),
        supabase
          .from('contact_messages')
          .select('id, kind, service, name, created_at', { count: 'exact' })
          .eq('status', 'open')
          .order('created_at', { ascending: false })
          .limit(OVERVIEW_LIST)
          .overrideTypes<{ kind: InboxKind }[]>(),
        supabase.rpc('open_long_term_applications', { p_limit: OVERVIEW_LIST }).overrideTypes<{ place_name: string | null }[]>(),
        supabase.rpc('money_to_return', { p_limit: OVERVIEW_LIST }).overrideTypes<{ place_name: string | null }[]>(),
      ]);
      if (messages.error) throw messages.error;
      if (applications.error) throw applications.error;
      if (money.error) throw money.error;
      const occupied = new Set(
        calendar.filter((e) => new Date(e.starts_at) <= now && (e.ends_at === null || new Date(e.ends_at) > now)).map((e) => e.place_id),
      );
      const freeNow = places.filter((p) => !occupied.has(p.id));
      const [startingToday, departures, checkedIn, pendingPayments, expiringSoon]: OverviewOrder[][] = results.map((r) => r.data ?? []);
      // overview_figures counts the same two groups.
      const isArrived = (o: OverviewOrder) => o.status === 'checked_in' || o.status === 'completed';
      const arrivals = startingToday.filter((o) => !isArrived(o));
      const arrived = startingToday.filter(isArrived);
      const apps = applications.data;
      return {
        arrivals,
        arrived,
        departures,
        checkedIn,
        pendingPayments,
        expiringSoon,
        freeNow,
        openMessages: messages.data,
        openMessagesTotal: messages.count ?? 0,
        applications: apps,
        // open_total is bigint: a JSON number from PostgREST, made sure of here.
        applicationsTotal: Number(apps[0]?.open_total ?? 0),
        moneyToReturn: money.data.map((m) => ({
          ...m,
          to_refund_cents: Number(m.to_refund_cents),
          failed_refund_cents: Number(m.failed_refund_cents),
        })),
        moneyToReturnTotal: Number(money.data[0]?.open_total ?? 0),
      };
    },
    staleTime: 15_000,
  });
