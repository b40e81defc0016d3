/**
 * Issue 27: where the local stack used to answer differently from PostgREST without saying so.
 * Each case is PostgREST's documented or coded behaviour (sources in docs/adr/0022-local-rest-postgrest-parity.md, "Local
 * stack parity with PostgREST"), on PGlite and Postgres 15.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { engines, skipBecause } from './harness/engines.ts';
import { setTxEnd, startTestStack } from './harness/stack.ts';
import { loadSchema } from '../src/rest/schema.ts';
import type { Stack } from '../src/stack.ts';
import { REST_FIXTURE, client, rest } from './fixtures/rest-helpers.ts';

for (const engine of engines()) {
  describe.skipIf(engine.skip && skipBecause(`rest parity on ${engine.name}`, engine.skip))(`rest parity on ${engine.name}`, () => {
    let stack: Stack;
    let service: SupabaseClient;
    const asService = (path: string, init: RequestInit = {}) =>
      rest(stack, path, {
        ...init,
        key: stack.keys.serviceRoleKey,
        headers: { Authorization: `Bearer ${stack.keys.serviceRoleKey}`, ...(init.headers as Record<string, string>) },
      });

    beforeAll(async () => {
      stack = await startTestStack({ engine: engine.name, workdir: REST_FIXTURE });
      service = client(stack, stack.keys.serviceRoleKey);
    });
    afterAll(async () => {
      await stack?.close();
    });

    it('upsert with missing=default gives an omitted column its default, not the old value', async () => {
      await service.from('gear').insert({ id: 10, label: 'fender', note: 'old note', qty: 7 });
      // supabase-js sends ?columns=id,label,qty,note (all keys) and Prefer: missing=default
      const r = await service
        .from('gear')
        .upsert(
          [
            { id: 10, label: 'fender' },
            { id: 11, label: 'hook', qty: 2, note: 'new' },
          ],
          { defaultToNull: false },
        )
        .select('id, label, note, qty')
        .order('id');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([
        { id: 10, label: 'fender', note: 'none', qty: 1 },
        { id: 11, label: 'hook', note: 'new', qty: 2 },
      ]);
      // without missing=default the omitted column is null (and qty is not null: 23502)
      const nulls = await service.from('gear').upsert(
        [
          { id: 10, label: 'fender', qty: 4 },
          { id: 12, label: 'buoy' },
        ],
        { onConflict: 'id' },
      );
      expect([nulls.status, nulls.error?.code]).toEqual([400, '23502']);
      // PATCH with ?columns=: a listed column the body leaves out is null, or its default
      const patchDefault = await asService('/gear?id=eq.11&columns=label,note', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Prefer: 'missing=default, return=representation' },
        body: JSON.stringify({ label: 'boathook', ignored: 1 }),
      });
      expect(patchDefault.status).toBe(200);
      expect(patchDefault.headers.get('preference-applied')).toBe('missing=default, return=representation');
      expect(patchDefault.json).toMatchObject([{ id: 11, label: 'boathook', note: 'none', qty: 2 }]);
      const patchNull = await asService('/gear?id=eq.11&columns=note', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json', Prefer: 'return=representation' },
        body: JSON.stringify({ label: 'not listed' }),
      });
      expect(patchNull.json).toMatchObject([{ id: 11, label: 'boathook', note: null }]);
    });

    it('missing=default draws every default for every row, as PostgREST: sequences advance for rows with their own id', async () => {
      for (const table of ['berths_drawn', 'pontoons']) {
        // supabase-js: ?columns=id,label and Prefer: missing=default
        const own = await service.from(table).insert(
          [
            { id: 100, label: 'a' },
            { id: 101, label: 'b' },
          ],
          { defaultToNull: false },
        );
        expect(own.error).toBeNull();
        // the sequence gave 1 and 2 to the rows above; here 3 to the first row and 4 to the second
        const mixed = await service
          .from(table)
          .insert([{ id: 102, label: 'c' }, { label: 'd' }], { defaultToNull: false })
          .select('id, label');
        expect(mixed.error).toBeNull();
        expect(mixed.data).toEqual([
          { id: 102, label: 'c' },
          { id: 4, label: 'd' },
        ]);
        // without missing=default a row with its own id draws nothing
        expect((await service.from(table).insert({ id: 300, label: 'e' })).error).toBeNull();
        const upsert = await service
          .from(table)
          .upsert([{ id: 101, label: 'b2' }], { defaultToNull: false })
          .select('id, label');
        expect(upsert.data).toEqual([{ id: 101, label: 'b2' }]);
        const next = await service.from(table).insert({ label: 'f' }).select('id').single();
        expect(next.data).toEqual({ id: 6 });
      }
      // a default that is no sequence is still the column's default
      const depth = await service.from('berths_drawn').select('depth_m').eq('id', 4).single();
      expect(depth.data).toEqual({ depth_m: 3 });
    });

    it('max-affected with handling=strict: PGRST124 and rollback for RPC too, PGRST128 for a function not returning a set', async () => {
      await service.from('settings').insert([{ key: 'ma1' }, { key: 'ma2' }, { key: 'ma3' }]);
      const tooMany = await asService('/rpc/purge_settings', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: 'handling=strict, max-affected=2' },
        body: JSON.stringify({ prefix: 'ma' }),
      });
      expect(tooMany.status).toBe(400);
      expect(tooMany.json).toEqual({
        code: 'PGRST124',
        details: 'The query affects 3 rows',
        hint: null,
        message: 'Query result exceeds max-affected preference constraint',
      });
      expect((await service.from('settings').select('key').like('key', 'ma%')).data).toHaveLength(3);
      // lenient (the default) ignores max-affected, as PostgREST does
      const lenient = await asService('/rpc/purge_settings', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: 'max-affected=2' },
        body: JSON.stringify({ prefix: 'ma3' }),
      });
      expect([lenient.status, lenient.headers.get('preference-applied')]).toEqual([200, null]);
      const fits = await asService('/rpc/purge_settings?select=key', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: 'handling=strict, max-affected=2' },
        body: JSON.stringify({ prefix: 'ma' }),
      });
      expect(fits.status).toBe(200);
      expect(fits.headers.get('preference-applied')).toBe('handling=strict, max-affected=2');
      expect(fits.json).toEqual([{ key: 'ma1' }, { key: 'ma2' }]);
      const single = await asService('/rpc/purge_one', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Prefer: 'handling=strict, max-affected=5' },
        body: JSON.stringify({ k: 'none' }),
      });
      expect(single.status).toBe(400);
      expect(single.json).toEqual({
        code: 'PGRST128',
        details: null,
        hint: null,
        message: 'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
      });
      // handling=strict refuses preferences PostgREST does not know
      const unknown = await asService('/gear', { headers: { Prefer: 'handling=strict, return=everything, foo' } });
      expect(unknown.status).toBe(400);
      expect(unknown.json).toEqual({
        code: 'PGRST122',
        details: 'Invalid preferences: return=everything, foo',
        hint: null,
        message: 'Invalid preferences given with handling=strict',
      });
    });

    it('POST to a stable function runs read-only as in PostgREST (25006, 405)', async () => {
      const r = await asService('/rpc/sneaky_write', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect([r.status, r.json.code]).toEqual([405, '25006']);
      expect((await service.from('settings').select('key').eq('key', 'sneaky')).data).toEqual([]);
      // by GET too (it always was read-only); a volatile function still writes by POST
      expect((await asService('/rpc/sneaky_write')).json.code).toBe('25006');
      expect(
        (await asService('/rpc/bump', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"k":"sneaky"}' })).json,
      ).toBe(1);
    });

    it('an embed with an empty column list only filters: its key is left out', async () => {
      const r = await service.from('countries').select('id, cities!inner()').eq('cities.name', 'Oslo');
      expect(r.error).toBeNull();
      expect(r.data).toEqual([{ id: 1 }]);
      const raw = await rest(stack, '/countries?select=name,cities()&id=eq.2');
      expect(raw.text).toBe('[{"name":"Sweden"}]');
      const only = await rest(stack, '/countries?select=cities!inner()&cities.name=eq.Bergen');
      expect(only.json).toEqual([{}]);
      const nested = await rest(stack, '/countries?select=name,cities(name,countries())&id=eq.3');
      expect(nested.json).toEqual([{ name: 'Denmark', cities: [{ name: 'Copenhagen' }] }]);
    });

    it("answers Accept: text/csv with PostgREST's CSV", async () => {
      const r = await rest(stack, '/gear?select=id,label,note,qty&id=lt.3&order=id', { headers: { Accept: 'text/csv' } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(r.text).toBe('id,label,note,qty\n1,rope,"long, ""blue""",3\n2,anchor,,1');
      const arrays = await rest(stack, '/countries?select=name,tags,meta&id=in.(3,4)&order=id', { headers: { Accept: 'text/csv' } });
      expect(arrays.text).toBe('name,tags,meta\nDenmark,{nordic},\nGermany,{},"{""capital"": ""Berlin""}"');
      const empty = await rest(stack, '/gear?id=eq.999', { headers: { Accept: 'text/csv' } });
      expect([empty.status, empty.text]).toEqual([200, '\n']);
      const rpc = await rest(stack, '/rpc/country_stats?select=country,city_count&country=eq.Norway', { headers: { Accept: 'text/csv' } });
      expect(rpc.text).toBe('country,city_count\nNorway,2');
      const written = await asService('/gear?select=id,label', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/csv', Prefer: 'return=representation' },
        body: JSON.stringify({ id: 20, label: 'oar, spare' }),
      });
      expect([written.status, written.headers.get('content-type'), written.text]).toEqual([
        201,
        'text/csv; charset=utf-8',
        'id,label\n20,"oar, spare"',
      ]);
      const scalar = await rest(stack, '/rpc/hello', { headers: { Accept: 'text/csv' } });
      expect([scalar.status, scalar.json.code, scalar.json.message]).toEqual([400, 'PGRST127', 'Feature not implemented']);
      expect(scalar.json.details).toContain('text/csv responses of functions that return scalars');
    });

    it('applies Prefer: timezone to the transaction', async () => {
      const r = await rest(stack, '/gear?select=added&id=eq.1', { headers: { Prefer: 'timezone=America/New_York' } });
      expect(r.json).toEqual([{ added: '2023-12-31T19:00:00-05:00' }]);
      expect(r.headers.get('preference-applied')).toBe('timezone=America/New_York');
    });
    it('implements computed fields, computed relationships and embeds hinted by constraint name', async () => {
      const fields = await service.from('cities').select('name, label:city_label').like('city_label', 'Oslo*').order('city_label');
      expect(fields.error).toBeNull();
      expect(fields.data).toEqual([{ name: 'Oslo', label: 'Oslo (1) ' }]);
      const notInStar = await rest(stack, '/cities?id=eq.2');
      expect(Object.keys(notInStar.json[0])).not.toContain('city_label');
      const rels = await service.from('countries').select('name, capital_city(name), sister:capital_city(sister_cities(name))').eq('id', 1);
      expect(rels.data).toEqual([{ name: 'Norway', capital_city: { name: 'Oslo' }, sister: { sister_cities: [{ name: 'Bergen' }] } }]);
      const inner = await service.from('countries').select('name, capital_city!inner()').is('code', null);
      expect(inner.data).toEqual([]);
      const byConstraint = await service.from('boats').select('name, built:cities!boats_built_in_fkey(name)').eq('id', 1);
      expect(byConstraint.data).toEqual([{ name: 'Fram', built: { name: 'Bergen' } }]);
    });

    // issue 45: the last differences that answered success silently
    it("refuses two embeds of one table told apart only by hints, as Postgres refuses PostgREST's statement (42712)", async () => {
      const twice = await asService('/boats?select=name,cities!boats_home_city_id_fkey(name),cities!boats_built_in_fkey(name)');
      expect([twice.status, twice.json]).toEqual([
        400,
        { code: '42712', details: null, hint: null, message: 'table name "boats_cities_1" specified more than once' },
      ]);
      // one level down the name carries the depth; an RPC's rows are checked the same way
      const nested = await asService('/countries?select=cities(boats!home_city_id(name),boats!boats_built_in_fkey(name))');
      expect([nested.status, nested.json.message]).toEqual([400, 'table name "cities_boats_2" specified more than once']);
      const rpc = await asService('/rpc/cities_of?country=Norway&select=name,countries(name),countries(code)');
      expect([rpc.status, rpc.json.code]).toEqual([400, '42712']);
      // with aliases they are two keys, as on hosted
      const aliased = await service
        .from('boats')
        .select('name, home:cities!boats_home_city_id_fkey(name), built:cities!boats_built_in_fkey(name)')
        .eq('id', 1);
      expect(aliased.data).toEqual([{ name: 'Fram', home: expect.anything(), built: { name: 'Bergen' } }]);
    });

    it("count=planned and count=estimated give the planner's estimate as PostgREST does (206 when it exceeds the page)", async () => {
      // 150 rows analysed, then 50 more on the same page: the planner still says 150
      await stack.db.query('analyze public.numbers');
      await stack.db.query('insert into public.numbers (n) select generate_series(151, 200)');
      const explained = await stack.db.query<Record<string, unknown>>('explain (format json) select 1 from public.numbers');
      const plan = Object.values(explained.rows[0])[0];
      const planned = Number((typeof plan === 'string' ? JSON.parse(plan) : (plan as never))[0].Plan['Plan Rows']);
      expect(planned).toBeLessThan(200); // the estimate, not the count
      const read = (path: string, count: string) => rest(stack, path, { headers: { Prefer: `count=${count}` } });
      const p = await read('/numbers?select=n&limit=5', 'planned');
      expect([p.status, p.headers.get('content-range'), p.headers.get('preference-applied')]).toEqual([
        206,
        `0-4/${planned}`,
        'count=planned',
      ]);
      expect(p.json).toHaveLength(5);
      // estimated: counted up to max_rows (100) + 1, past that the larger of count and plan
      const e = await read('/numbers?select=n&limit=5', 'estimated');
      expect([e.status, e.headers.get('content-range')]).toEqual([206, `0-4/${Math.max(101, planned)}`]);
      const few = await read('/numbers?select=n&n=lte.30', 'estimated');
      expect([few.status, few.headers.get('content-range')]).toEqual([200, '0-29/30']);
      const exact = await read('/numbers?select=n&limit=5', 'exact');
      expect(exact.headers.get('content-range')).toBe('0-4/200');
      // functions: planned gives no total, estimated counts; writes count only for exact/estimated
      const rpcPlanned = await read('/rpc/series?n=3', 'planned');
      expect([rpcPlanned.status, rpcPlanned.headers.get('content-range')]).toEqual([200, '0-2/*']);
      expect((await read('/rpc/series?n=3', 'estimated')).headers.get('content-range')).toBe('0-2/3');
      const write = (count: string) =>
        asService('/numbers', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Prefer: `count=${count}` },
          body: '{"n": 1000}',
        });
      expect((await write('planned')).headers.get('content-range')).toBe('*/*');
      await stack.db.query('delete from public.numbers where n = 1000');
      expect((await write('exact')).headers.get('content-range')).toBe('*/1');
    });

    it("honours Prefer: tx only where pgrst.db_tx_end allows it, as PostgREST's db-tx-end", async () => {
      const insert = (table: string, row: object, prefer: string) =>
        asService(`/${table}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Prefer: prefer },
          body: JSON.stringify(row),
        });
      const kept = async (key: string) => (await service.from('settings').select('key').eq('key', key)).data?.length === 1;
      // the default, commit: tx=rollback is ignored, not reported, and not refused as unknown
      const ignored = await insert('settings', { key: 'tx1' }, 'tx=rollback, handling=strict');
      expect([ignored.status, ignored.headers.get('preference-applied')]).toEqual([201, 'handling=strict']);
      expect(await kept('tx1')).toBe(true);
      try {
        await setTxEnd(stack, 'commit-allow-override');
        const rolled = await insert('settings', { key: 'tx2' }, 'tx=rollback');
        expect([rolled.status, rolled.headers.get('preference-applied')]).toEqual([201, 'tx=rollback']);
        expect(await kept('tx2')).toBe(false);
        // deferred constraints are checked before the rollback (SET CONSTRAINTS ALL IMMEDIATE)
        const deferred = await insert('moorings', { id: 1, boat_id: 999 }, 'tx=rollback');
        expect([deferred.status, deferred.json.code]).toEqual([409, '23503']);
        // rollback: every transaction rolls back and tx=commit is not honoured
        await setTxEnd(stack, 'rollback');
        const all = await insert('settings', { key: 'tx3' }, 'tx=commit');
        expect([all.status, all.headers.get('preference-applied')]).toEqual([201, null]);
        expect(await kept('tx3')).toBe(false);
        await setTxEnd(stack, 'rollback-allow-override');
        expect((await insert('settings', { key: 'tx4' }, 'tx=commit')).headers.get('preference-applied')).toBe('tx=commit');
        expect(await kept('tx4')).toBe(true);
        // a value PostgREST does not know stops the start (and a reload keeps the last good cache)
        await stack.db.query(`alter role authenticator set pgrst.db_tx_end = 'sometimes'`);
        await expect(loadSchema(stack.db)).rejects.toThrow(
          "pgrst.db_tx_end = 'sometimes' on role authenticator: Invalid transaction termination.",
        );
      } finally {
        await setTxEnd(stack, null);
      }
      expect((await insert('settings', { key: 'tx5' }, 'tx=rollback')).headers.get('preference-applied')).toBeNull();
      expect(await kept('tx5')).toBe(true);
    });

    it('resolves overloads and unnamed parameters as PostgREST does: PGRST203 (300), the body to a single unnamed one', async () => {
      // without arguments both () and (text default ...) fit: PostgREST cannot choose (Postgres would say 42725)
      const none = await service.rpc('unnamed_default');
      expect([none.status, none.error]).toEqual([
        300,
        {
          code: 'PGRST203',
          details: null,
          hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
          message: 'Could not choose the best candidate function between: public.unnamed_default(), public.unnamed_default( => text)',
        },
      ]);
      // the key '' names the unnamed parameter; the whole body is its value (OnePosParam)
      const unnamed = await service.rpc('unnamed_default', { '': 'custom text' });
      expect([unnamed.status, unnamed.data]).toEqual([200, 'text {"":"custom text"}']);
      // an unnamed parameter of another type is not callable: not in the schema cache
      const int = await service.rpc('unnamed_int', { '': 1 });
      expect([int.status, int.error?.code]).toEqual([404, 'PGRST202']);
      // overloads told apart by name only: PGRST203 with Postgres's type names
      const echo = await service.rpc('echo', { v: 1 });
      expect([echo.status, echo.error?.message]).toEqual([
        300,
        'Could not choose the best candidate function between: public.echo(v => integer), public.echo(v => text)',
      ]);
      // a single unnamed json parameter still takes any JSON object
      expect((await service.rpc('count_keys', { a: 1, b: 2 })).data).toBe(2);
    });

    it("embeds by a foreign key's constraint name in both directions, and a table that refers to itself, as PostgREST's findRel", async () => {
      // from the referenced side, the constraint names the one-to-many
      const byName = await service
        .from('cities')
        .select('name, built:boats_built_in_fkey(name), home:boats_home_city_id_fkey(name)')
        .eq('id', 1);
      expect([byName.error, byName.data]).toEqual([null, [{ name: 'Oslo', built: [{ name: 'Gokstad' }], home: [{ name: 'Fram' }] }]]);
      // self-reference: the table's name is the rows referring to this one, the FK column the one referred to
      const children = await service.from('family').select('name, family(name)').eq('id', 1).order('id', { referencedTable: 'family' });
      expect([children.error, children.data]).toEqual([null, [{ name: 'root', family: [{ name: 'child a' }, { name: 'child b' }] }]]);
      const parent = await service.from('family').select('name, parent_id(name)').eq('id', 4);
      expect(parent.data).toEqual([{ name: 'grandchild', parent_id: { name: 'child a' } }]);
      const hinted = await service.from('family').select('name, kids:family!parent_id(name)').eq('id', 2);
      expect(hinted.data).toEqual([{ name: 'child a', kids: [{ name: 'grandchild' }] }]);
      // PostgREST does not take a self-referencing constraint name as the target
      const byConstraint = await asService('/family?select=name,family_parent_id_fkey(name)');
      expect([byConstraint.status, byConstraint.json.code]).toEqual([400, 'PGRST200']);
    });

    it('answers every request feature it does not implement with PGRST127 naming it', async () => {
      const notImplemented = async (path: string, init: RequestInit, feature: string) => {
        const r = await asService(path, init);
        expect([r.status, r.json.code, r.json.message]).toEqual([400, 'PGRST127', 'Feature not implemented']);
        expect(r.json.details).toContain(feature);
      };
      await notImplemented('/big_cities?select=name,countries(name)', {}, 'embedding through views');
      await notImplemented('/countries?select=name,...cities(name)', {}, 'spreading a to-many embed');
      await notImplemented(
        '/rpc/total',
        { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"xs":[1,2]}' },
        'VARIADIC function public.total',
      );
      await notImplemented('/rpc/hello', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }, 'raw text/plain body');
      // aggregates are off on hosted Supabase (db-aggregates-enabled): PostgREST's own error
      const agg = await rest(stack, '/gear?select=qty.sum()');
      expect([agg.status, agg.json]).toEqual([
        400,
        { code: 'PGRST123', details: null, hint: null, message: 'Use of aggregate functions is not allowed' },
      ]);
      expect((await rest(stack, '/gear?select=count()')).json.code).toBe('PGRST123');
      const type = await asService('/gear', { method: 'POST', headers: { 'Content-Type': 'application/xml' }, body: '<gear/>' });
      expect([type.status, type.json.code, type.json.message]).toEqual([400, 'PGRST102', 'Content-Type not acceptable: application/xml']);
    });

    it('upserts one row by PUT as PostgREST does', async () => {
      const put = (path: string, body: unknown, prefer = 'return=representation') =>
        asService(path, { method: 'PUT', headers: { 'Content-Type': 'application/json', Prefer: prefer }, body: JSON.stringify(body) });
      const created = await put('/gear?id=eq.40&select=id,label,qty', { id: 40, label: 'kedge', qty: 2 });
      expect([created.status, created.json]).toEqual([201, [{ id: 40, label: 'kedge', qty: 2 }]]);
      const replaced = await put('/gear?id=eq.40&select=id,label,qty', { id: 40, label: 'kedge anchor', qty: 3 });
      expect([replaced.status, replaced.json]).toEqual([200, [{ id: 40, label: 'kedge anchor', qty: 3 }]]);
      const quiet = await put('/gear?id=eq.40', { id: 40, label: 'kedge', qty: 4 }, 'return=minimal');
      expect([quiet.status, quiet.text, quiet.headers.get('preference-applied')]).toEqual([204, '', 'return=minimal']);
      const mismatch = await put('/gear?id=eq.41', { id: 42, label: 'x' });
      expect([mismatch.status, mismatch.json]).toEqual([
        400,
        { code: 'PGRST115', details: null, hint: null, message: 'Payload values do not match URL in primary key column(s)' },
      ]);
      expect((await service.from('gear').select('id').in('id', [41, 42])).data).toEqual([]);
      const notPk = await put('/gear?label=eq.x', { id: 43, label: 'x' });
      expect([notPk.status, notPk.json.code, notPk.json.message]).toEqual([
        405,
        'PGRST105',
        "Filters must include all and only primary key columns with 'eq' operators",
      ]);
      const limited = await put('/gear?id=eq.43&limit=1', { id: 43, label: 'x' });
      expect([limited.status, limited.json.code]).toEqual([400, 'PGRST114']);
      expect((await service.from('gear').select('label, qty').eq('id', 40).single()).data).toEqual({ label: 'kedge', qty: 4 });
    });

    it('reads CSV and form-urlencoded bodies as PostgREST does', async () => {
      const csv = await asService('/gear?select=id,label,note', {
        method: 'POST',
        headers: { 'Content-Type': 'text/csv', Prefer: 'return=representation' },
        body: 'id,label,note\r\n30,"net, small",NULL\r\n31,"say ""hi""",\r\n',
      });
      expect(csv.status).toBe(201);
      expect(csv.json).toEqual([
        { id: 30, label: 'net, small', note: null },
        { id: 31, label: 'say "hi"', note: '' },
      ]);
      const ragged = await asService('/gear', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: 'id,label\n32\n' });
      expect([ragged.status, ragged.json.code, ragged.json.message]).toEqual([
        400,
        'PGRST102',
        'All lines must have same number of fields',
      ]);
      const form = await asService('/gear?select=id,label', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Prefer: 'return=representation' },
        body: 'id=33&label=spare+oar',
      });
      expect(form.json).toEqual([{ id: 33, label: 'spare oar' }]);
      const rpc = await rest(stack, '/rpc/add', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'a=1&b=2',
      });
      expect(rpc.json).toBe(3);
    });

    it('serves a second exposed schema by Accept-Profile and Content-Profile', async () => {
      const read = await rest(stack, '/docks?order=id', { headers: { 'Accept-Profile': 'marina' } });
      expect([read.status, read.headers.get('content-profile'), read.json]).toEqual([
        200,
        'marina',
        [
          { id: 1, name: 'North' },
          { id: 2, name: 'South' },
        ],
      ]);
      const js = await service.schema('marina').from('docks').insert({ id: 3, name: 'East' }).select();
      expect([js.status, js.data]).toEqual([201, [{ id: 3, name: 'East' }]]);
      // the request's schema leads the search_path, as PostgREST sets it
      expect((await service.schema('marina').rpc('dock_count')).data).toBe(3);
      const notInPublic = await rest(stack, '/docks');
      expect([notInPublic.status, notInPublic.json.code]).toEqual([404, 'PGRST205']);
      const other = await rest(stack, '/docks', { headers: { 'Accept-Profile': 'storage' } });
      expect(other.json).toEqual({
        code: 'PGRST106',
        details: null,
        hint: 'Only the following schemas are exposed: public, marina',
        message: 'Invalid schema: storage',
      });
    });
  });
}
