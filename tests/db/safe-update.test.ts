/**
 * Hosted Supabase loads pg-safeupdate into the API's sessions (`session_preload_libraries` of the
 * `authenticator` role): every UPDATE or DELETE without a WHERE clause is refused there with
 * SQLSTATE 21000 "UPDATE requires a WHERE clause", also inside the functions an RPC runs and
 * their triggers (the check sits in the parser's post-analysis hook, which every statement a
 * PL/pgSQL function prepares passes through; github.com/eradman/pg-safeupdate, safeupdate.c).
 * Neither PGlite nor Debian's PostgreSQL has the library, so the local stack cannot refuse such
 * a statement inside a function (its REST refuses the unfiltered PATCH and DELETE itself:
 * supabase/local/src/rest/write.ts). This test keeps the schema's SQL free of them instead, so a
 * function cannot pass every local test and then fail on the platform (ADR 0021).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const schemas = resolve(import.meta.dirname, '../../supabase/schemas');

/** UPDATE and DELETE statements without a WHERE clause in a piece of SQL (comments removed). */
export function unqualifiedWrites(sql: string): string[] {
  const text = sql.replace(/--[^\n]*/g, '');
  const found: string[] = [];
  // `update <table> [[as] alias] set …` (not `on conflict … do update set`) and `delete from <table>`,
  // up to the end of the statement.
  const statement = /\b(?:(?<!\bdo\s+)update\s+[\w."]+(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\b|delete\s+from\s+[\w."]+)[^;]*/gi;
  for (const match of text.matchAll(statement)) {
    if (!/\bwhere\b/i.test(match[0])) found.push(match[0].replace(/\s+/g, ' ').trim());
  }
  return found;
}

describe('pg-safeupdate', () => {
  it('finds an UPDATE or DELETE without WHERE, and passes one with it or an upsert', () => {
    expect(unqualifiedWrites('begin update public.settings set v = 1; delete from private.x; end')).toEqual([
      'update public.settings set v = 1',
      'delete from private.x',
    ]);
    expect(
      unqualifiedWrites(
        `update public.settings s set v = 1 where s.k = 'a'; delete from private.x where true;
         insert into t values (1) on conflict (k) do update set v = excluded.v;
         with gone as (delete from private.y y where y.id = 1 returning y.id) select 1;`,
      ),
    ).toEqual([]);
  });

  it('no function or statement of the schema updates or deletes without a WHERE clause', () => {
    const found = readdirSync(schemas)
      .filter((file) => file.endsWith('.sql'))
      .flatMap((file) => unqualifiedWrites(readFileSync(resolve(schemas, file), 'utf8')).map((s) => `${file}: ${s.slice(0, 120)}`));
    expect(found).toEqual([]);
  });
});
