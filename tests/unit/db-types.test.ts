/**
 * The app's Supabase client is typed by the generated schema (src/lib/database.types.ts): the
 * type assertions below fail `npm run typecheck` (tsconfig.json includes tests/unit) when a
 * query's row type stops coming from the database types; the runtime checks compare the
 * hand-kept value lists with the generated enums.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { QueryData, SupabaseClient } from '@supabase/supabase-js';
import { Constants, type Database, type Enums, type Tables } from '@/lib/database.types';
import type { AppSupabaseClient } from '@/lib/supabase';
import type { getSupabase } from '@/lib/auth';
import type { Order } from '@/features/orders/api/types';
import type { HoursEntry } from '@/features/harbour/hours/api/hours';
import type { PlaceResult } from '@/features/booking/api/types';
import type { myBookingsQueryOptions } from '@/features/account/api/bookings';
import { orderKinds, orderStatuses } from '@/features/harbour/orders/api/orders-search';

// Query builders are only typed here, never run (no request is sent).
const _identityQuery = (c: AppSupabaseClient) => c.from('user_roles').select('admin, harbor, user').eq('user_id', 'x').maybeSingle();
const _misspelt = (c: AppSupabaseClient) => c.from('profiles').select('id, locael');
const _embedded = (c: AppSupabaseClient) => c.from('long_term_holders').select('id, place:places(name, pier)');
const _rpc = (c: AppSupabaseClient) => c.rpc('harbour_access');

describe('the typed Supabase client', () => {
  it('is the generated Database schema, also through getSupabase()', () => {
    // src/lib/supabase-client.ts: supabase-js's own types for what the app's client shares with it.
    type Shared = 'auth' | 'from' | 'rpc' | 'schema';
    expectTypeOf<Pick<AppSupabaseClient, Shared>>().toEqualTypeOf<Pick<SupabaseClient<Database>, Shared>>();
    expectTypeOf<Awaited<ReturnType<typeof getSupabase>>>().toEqualTypeOf<AppSupabaseClient>();
  });

  it('gives selects the columns and nullability of the generated rows', () => {
    // QueryData drops the null of maybeSingle().
    expectTypeOf<QueryData<ReturnType<typeof _identityQuery>>>().toEqualTypeOf<{ admin: boolean; harbor: boolean; user: boolean }>();
    expectTypeOf<QueryData<ReturnType<typeof _embedded>>[number]['place']>().toEqualTypeOf<Pick<Tables<'places'>, 'name' | 'pier'>>();
    expectTypeOf<QueryData<ReturnType<typeof _rpc>>>().toEqualTypeOf<Database['public']['Functions']['harbour_access']['Returns']>();
  });

  it('turns a _misspelt column into a select error type instead of any', () => {
    type Row = QueryData<ReturnType<typeof _misspelt>>[number];
    expectTypeOf<Row>().not.toBeAny();
    expectTypeOf<Row>().toExtend<{ error: true }>();
  });

  it('derives the app row types from the generated ones', () => {
    expectTypeOf<Omit<Order, 'boat' | 'person' | 'place_snapshot' | 'price_breakdown'>>().toEqualTypeOf<
      Omit<Tables<'orders'>, 'boat' | 'person' | 'place_snapshot' | 'price_breakdown'>
    >();
    expectTypeOf<Order['status']>().toEqualTypeOf<Enums<'order_status'>>();
    expectTypeOf<Order['boat']['name']>().toEqualTypeOf<string>();
    expectTypeOf<HoursEntry['work_date']>().toEqualTypeOf<Tables<'working_hours'>['work_date']>();
    expectTypeOf<HoursEntry['minutes']>().toEqualTypeOf<number>();
    expectTypeOf<PlaceResult['price_cents']>().toEqualTypeOf<number>();
    expectTypeOf<PlaceResult['pier']>().toEqualTypeOf<string | null>();
    expectTypeOf<Awaited<ReturnType<NonNullable<ReturnType<typeof myBookingsQueryOptions>['queryFn']>>>>().toEqualTypeOf<Order[]>();
  });

  it('keeps the order filters equal to the database enums', () => {
    expect([...orderStatuses].sort()).toEqual([...Constants.public.Enums.order_status].sort());
    expect([...orderKinds].sort()).toEqual([...Constants.public.Enums.order_kind].sort());
  });
});
