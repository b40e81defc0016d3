/**
 * Guard: no function in public or private raises an error that PostgREST answers with a 5xx.
 *
 * PostgREST picks the HTTP status from the SQLSTATE (supabase/local/src/rest/errors.ts
 * `statusForSqlState` mirrors its table): P0001 (plain RAISE) -> 400, PTxxx -> xxx, most classes
 * -> 400, but every other P0… code (P0002 no_data_found, P0003 too_many_rows, P0004
 * assert_failure, P0000), XX…, 09, 25, 2D, 38, 39, 3B, 40, 54, 55, 57, 58, F0, HV -> 500 and
 * 08, 53 -> 503. A function that says "not found" with P0002 therefore looked like a server error
 * (fixed in 20261122002700 by rewriting the sources; a function written later would bring it
 * back). This reads the sources of every function after all migrations and fails on:
 *  - `errcode = '<code or condition name>'` whose status is 5xx (or that is not a literal),
 *  - `raise [exception] sqlstate '<code>'` whose status is 5xx,
 *  - `raise [exception] <condition_name>` whose SQLSTATE is 5xx (unknown names fail too),
 *  - `select … into strict`, which raises P0002/P0003 (HTTP 500) when no row or several match.
 * Not-found is PT404 (HTTP 404); conflicts 23P01/23505 (409); bad input 22023 (400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../supabase/local/src/db/pglite.ts';
import { preparedPglite } from '../../supabase/local/test/harness/stack.ts';
import { statusForSqlState } from '../../supabase/local/src/rest/errors.ts';
import type { Database } from '../../supabase/local/src/db/types.ts';

/** PL/pgSQL condition names (appendix A of the PostgreSQL manual) we may meet, by SQLSTATE. */
const CONDITIONS: Record<string, string> = {
  raise_exception: 'P0001',
  plpgsql_error: 'P0000',
  no_data_found: 'P0002',
  too_many_rows: 'P0003',
  assert_failure: 'P0004',
  internal_error: 'XX000',
  data_corrupted: 'XX001',
  unique_violation: '23505',
  foreign_key_violation: '23503',
  exclusion_violation: '23P01',
  check_violation: '23514',
  not_null_violation: '23502',
  restrict_violation: '23001',
  integrity_constraint_violation: '23000',
  data_exception: '22000',
  invalid_parameter_value: '22023',
  invalid_text_representation: '22P02',
  numeric_value_out_of_range: '22003',
  division_by_zero: '22012',
  string_data_right_truncation: '22001',
  invalid_datetime_format: '22007',
  insufficient_privilege: '42501',
  feature_not_supported: '0A000',
  object_in_use: '55006',
  lock_not_available: '55P03',
  serialization_failure: '40001',
  deadlock_detected: '40P01',
  query_canceled: '57014',
  cardinality_violation: '21000',
};

const LEVELS = new Set(['debug', 'log', 'info', 'notice', 'warning', 'exception', 'using']);

export interface Finding {
  what: string;
  code: string;
  status: number | string;
}

/** The 5xx-raising constructs of one function's source (comments are ignored). */
export function serverErrorsIn(source: string): Finding[] {
  const src = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
  const out: Finding[] = [];
  const check = (what: string, codeOrName: string) => {
    const name = codeOrName.toLowerCase();
    const code = /^[0-9A-Z]{5}$/.test(codeOrName) ? codeOrName : CONDITIONS[name];
    if (!code) {
      out.push({ what, code: codeOrName, status: 'unknown condition name or malformed SQLSTATE: add it to CONDITIONS' });
      return;
    }
    const status = statusForSqlState(code, '', true);
    if (status >= 500) out.push({ what, code, status });
  };
  for (const m of src.matchAll(/\berrcode\s*:?=\s*('([^']*)'|[^,;\s)]+)/gi)) {
    if (m[2] === undefined) out.push({ what: m[0], code: m[1], status: 'not a literal: cannot be checked' });
    else check(m[0], m[2]);
  }
  for (const m of src.matchAll(/\braise\s+(?:exception\s+)?sqlstate\s+'([^']*)'/gi)) check(m[0], m[1]);
  for (const m of src.matchAll(/\braise\s+(?:exception\s+)?([a-z_][a-z0-9_]*)\b/gi)) {
    const word = m[1].toLowerCase();
    if (LEVELS.has(word) || word === 'sqlstate') continue;
    check(m[0], word);
  }
  for (const m of src.matchAll(/\binto\s+strict\b/gi)) out.push({ what: m[0], code: 'P0002/P0003', status: 500 });
  return out;
}

describe('error codes of the database functions', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openPglite({ loadDataDir: await preparedPglite('supabase', false) });
  }, 240_000);
  afterAll(async () => {
    await db?.close();
  });

  const functionsWith5xx = async () => {
    const { rows } = await db.query<{ fn: string; src: string }>(`
      select p.oid::regprocedure::text as fn, p.prosrc as src
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'private')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
      order by 1`);
    return {
      count: rows.length,
      bad: rows.flatMap((r) => serverErrorsIn(r.src).map((f) => `${r.fn}: ${f.what} -> ${f.code} (HTTP ${f.status})`)),
    };
  };

  it('no function in public or private raises a code PostgREST answers with 5xx (not found is PT404)', async () => {
    const { count, bad } = await functionsWith5xx();
    expect(count).toBeGreaterThan(50);
    expect(
      bad,
      `raise PT404 for "not found", 22023 for bad input, 23P01/23505 for conflicts, P0001 for other refusals:\n${bad.join('\n')}`,
    ).toEqual([]);
  });

  it('would catch a function written later that raises P0002 (and the other forms)', async () => {
    await db.exec(`
      create function private.guard_probe(p_id uuid) returns void language plpgsql set search_path = '' as $$
      declare v int;
      begin
        raise exception 'thing_not_found' using errcode = 'P0002';
      end $$;`);
    try {
      const { bad } = await functionsWith5xx();
      expect(bad).toEqual(["private.guard_probe(uuid): errcode = 'P0002' -> P0002 (HTTP 500)"]);
    } finally {
      await db.exec('drop function private.guard_probe(uuid)');
    }
  });

  it('reads every form of raising', () => {
    expect(serverErrorsIn(`raise exception 'x' using errcode = 'PT404'; raise exception 'y' using errcode = '22023', hint = 'h';`)).toEqual(
      [],
    );
    expect(serverErrorsIn(`raise 'x'; raise exception 'x' using errcode = 'P0001'; raise notice 'n'; raise; -- errcode = 'P0002'`)).toEqual(
      [],
    );
    expect(serverErrorsIn(`raise exception using message = 'x', errcode = 'unique_violation';`)).toEqual([]);
    expect(serverErrorsIn(`raise exception 'x' using errcode = 'no_data_found';`).map((f) => f.code)).toEqual(['P0002']);
    expect(serverErrorsIn(`raise no_data_found using message = 'x';`).map((f) => f.code)).toEqual(['P0002']);
    expect(serverErrorsIn(`raise exception too_many_rows;`).map((f) => f.code)).toEqual(['P0003']);
    expect(serverErrorsIn(`raise sqlstate 'XX000';`).map((f) => f.code)).toEqual(['XX000']);
    expect(serverErrorsIn(`raise exception 'x' using errcode := '55000';`).map((f) => f.code)).toEqual(['55000']);
    expect(serverErrorsIn(`raise exception 'x' using errcode = '40001';`).map((f) => f.code)).toEqual(['40001']);
    expect(serverErrorsIn(`raise exception 'x' using errcode = 'PT999';`).map((f) => f.code)).toEqual(['PT999']);
    expect(serverErrorsIn(`raise exception 'x' using errcode = v_code;`).map((f) => f.status)).toEqual([
      'not a literal: cannot be checked',
    ]);
    expect(serverErrorsIn(`raise made_up_condition;`).map((f) => f.code)).toEqual(['made_up_condition']);
    expect(serverErrorsIn(`select x into strict v from t;`).map((f) => f.code)).toEqual(['P0002/P0003']);
  });
});
