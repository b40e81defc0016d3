// Issue 41 deliverable 4: one error catalogue (src/lib/errors, ADR 0019). The codes the database
// and the edge functions raise are listed once; this test reads every SQL file of supabase/schemas
// and every edge function by glob (never by name: the files are being split), and fails when one
// raises a code the catalogue lacks, or the catalogue holds a code nothing raises. Then every code
// with a reader has its text in exactly one area's file, and the lookup never shows the raw text.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_CODES, DB_ERROR_CODES, ERROR_CODES, FUNCTION_ERROR_CODES, errorCode } from '@/lib/errors/codes';
import { errorMessage, GUEST_ERROR_MESSAGES } from '@/lib/errors/guest-messages';
import { STAFF_ERROR_MESSAGES, STAFF_WORDINGS, staffErrorMessage } from '@/lib/errors/staff-messages';
import { FunctionCallError } from '@/lib/edge-functions';
import { activateLocale } from '@/lib/i18n';

const root = join(import.meta.dirname, '../..');
const filesUnder = (dir: string, ext: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(ext))
    .map((file) => join(root, dir, file));
const withoutSqlComments = (sql: string) => sql.replace(/--[^\n]*/g, '');

/** The codes the SQL raises: `raise exception 'code'`, the append-only trigger's `refuse_change('code', …)`, and berth_verdict's refusals. */
function sqlCodes(): Set<string> {
  const sql = filesUnder('supabase/schemas', '.sql')
    .map((file) => withoutSqlComments(readFileSync(file, 'utf8')))
    .join('\n');
  const codes = new Set<string>();
  for (const [, code] of sql.matchAll(/raise\s+exception\s+'([a-z][a-z0-9_]*)'/gi)) codes.add(code!);
  for (const [, code] of sql.matchAll(/private\.refuse_change\(\s*'([a-z][a-z0-9_]*)'/gi)) codes.add(code!);
  // `raise exception '%', v_verdict`: check_berth_for raises berth_verdict's answer as it is
  // for these two (its other answers become boat_does_not_fit or berth_no_longer_available).
  const check = /when\s+((?:'[a-z_]+'\s*,?\s*)+)then\s+raise\s+exception\s+'%',\s*v_verdict/i.exec(sql);
  expect(check, "check_berth_for's raise '%', v_verdict").not.toBeNull();
  for (const [, code] of check![1]!.matchAll(/'([a-z_]+)'/g)) codes.add(code!);
  // Any other `raise exception '%'` would raise a code this test cannot see.
  const dynamic = [...sql.matchAll(/raise\s+exception\s+'%'\s*,\s*([a-z_.[\]0-9]+)/gi)].map((m) => m[1]);
  expect(dynamic.sort()).toEqual(['tg_argv[0]', 'v_verdict']);
  return codes;
}

/** The codes the edge functions answer with: `{ error: 'code' }`, `{ code: 'code' }`, refusalCode's `return 'code'`. */
function functionCodes(): Set<string> {
  const codes = new Set<string>();
  for (const file of filesUnder('supabase/functions', '.ts')) {
    if (/\.test\.ts$|\/tests?\//.test(file)) continue;
    const source = readFileSync(file, 'utf8');
    for (const [, code] of source.matchAll(/\b(?:error|code):\s*'([a-z][a-z0-9_]*)'/g)) codes.add(code!);
    const refusal = /export function refusalCode[\s\S]*?\n}/.exec(source);
    if (refusal) for (const [, code] of refusal[0].matchAll(/return '([a-z][a-z0-9_]*)'/g)) codes.add(code!);
  }
  return codes;
}

const sorted = (codes: Iterable<string>) => [...codes].sort();

describe('the error catalogue (src/lib/errors/codes.ts)', () => {
  it('holds every code the SQL raises, and none it does not', () => {
    const raised = sqlCodes();
    expect(raised.size).toBeGreaterThan(100);
    expect(sorted(Object.keys(DB_ERROR_CODES)), 'DB_ERROR_CODES against supabase/schemas/*.sql').toEqual(sorted(raised));
  });

  it('holds every code the edge functions answer with, and none they do not', () => {
    const raised = functionCodes();
    for (const code of Object.keys(DB_ERROR_CODES)) raised.delete(code);
    expect(sorted(Object.keys(FUNCTION_ERROR_CODES)), 'FUNCTION_ERROR_CODES against supabase/functions').toEqual(sorted(raised));
  });

  it('lists each code once (the three lists do not overlap)', () => {
    const all = [...Object.keys(DB_ERROR_CODES), ...Object.keys(FUNCTION_ERROR_CODES), ...Object.keys(CLIENT_ERROR_CODES)];
    expect(all.length).toBe(new Set(all).size);
  });

  it("gives every code with a reader its text in its area's file, and internal codes none", () => {
    const guest = Object.keys(GUEST_ERROR_MESSAGES);
    const staff = Object.keys(STAFF_ERROR_MESSAGES);
    const byAudience = (audience: string) => sorted(Object.entries(ERROR_CODES).flatMap(([code, a]) => (a === audience ? [code] : [])));
    expect(sorted(guest)).toEqual(byAudience('guest'));
    expect(sorted(staff)).toEqual(byAudience('staff'));
    // Together the two maps and the internal codes are the whole union, each code in one place.
    expect(sorted([...guest, ...staff, ...byAudience('internal')])).toEqual(sorted(Object.keys(ERROR_CODES)));
    for (const code of Object.keys(STAFF_WORDINGS)) expect(ERROR_CODES[code as keyof typeof ERROR_CODES]).toBe('guest');
  });
});

describe('errorMessage and staffErrorMessage', () => {
  it('read the code from a PostgREST error, a thrown Error and a FunctionCallError', () => {
    expect(errorCode({ code: 'P0001', message: 'order_not_cancellable' })).toBe('order_not_cancellable');
    expect(errorCode(Object.assign(new Error('cash_day_closed'), { code: 'P0001' }))).toBe('cash_day_closed');
    expect(errorCode(new FunctionCallError('nothing_to_pay', 409))).toBe('nothing_to_pay');
    expect(errorCode({ code: '23505', message: 'duplicate key value violates unique constraint "x"' })).toBeUndefined();
  });

  it('give the text in the active language, never the raw database text', async () => {
    await activateLocale('de', '/account/admin');
    expect(errorMessage({ code: '23P01', message: 'berth_no_longer_available' })).toBe(
      'Dieser Liegeplatz ist inzwischen vergeben. Bitte wählen Sie einen anderen.',
    );
    expect(staffErrorMessage({ code: '23P01', message: 'berth_no_longer_available' })).toBe(
      'Der Liegeplatz ist in diesem Zeitraum schon belegt. Bitte einen anderen Liegeplatz wählen.',
    );
    expect(staffErrorMessage({ code: 'P0001', message: 'cash_day_closed' })).toContain('bereits abgeschlossen');
    expect(staffErrorMessage({ code: '23505', message: 'duplicate key value' })).toBe('Diesen Eintrag gibt es schon.');
    // An internal guard (no text of its own: its SQLSTATE's, else the generic one) and an unknown failure.
    expect(staffErrorMessage({ code: 'P0001', message: 'tariff_missing' })).toBe(
      'Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.',
    );
    expect(errorMessage({ code: 'XX000', message: 'boom' })).toBe('Das hat nicht geklappt. Bitte versuchen Sie es noch einmal.');
    expect(errorMessage({ message: 'beyond_booking_horizon', hint: '2028-03-01' })).toBe(
      'Online buchbar sind Aufenthalte bis Mi., 1. März 2028. Spätere Zeiträume sind noch nicht freigegeben.',
    );
    await activateLocale('en', '/account/admin');
    expect(errorMessage({ message: 'invalid_sale_code' })).toBe('This promo code is not valid.');
    expect(staffErrorMessage({ message: 'staff_only' })).toBe('Harbour team only.');
    expect(staffErrorMessage({ code: 'XX000', message: 'boom' })).toBe('That did not work. Please try again.');
    await activateLocale('de', '/account/admin');
  });
});
