/**
 * The two primitives every statement is built from: a quoted identifier, and a value as a
 * parameter (or, for a read sent as one simple query, a quoted text literal). PostgREST binds
 * every value the same way (its SqlFragment's pgFmtIdent and encoded parameters).
 */
import { literal } from '../db/request.ts';

export const quoteIdent = (id: string) => `"${id.replace(/"/g, '""')}"`;

export class Params {
  readonly values: (string | null)[] = [];
  /**
   * inline: each value goes into the statement as a text literal (`E'…'::text` in place of
   * `$n::text`, the same value of the same type) so a read can travel as one simple query with
   * its transaction (db/request.ts, readAsRequest); the values are still collected.
   */
  constructor(readonly inline = false) {}
  /** True when a value cannot be written as a literal (a NUL: as a parameter it fails as before). */
  get inlinable(): boolean {
    return !this.values.some((v) => v !== null && v.includes('\0'));
  }
  /** A text parameter, optionally cast to a type from the schema cache. */
  add(value: string | null, type?: string): string {
    this.values.push(value);
    const p = this.inline ? (value === null ? 'null::text' : `${literal(value)}::text`) : `$${this.values.length}::text`;
    return type && type !== 'text' ? `cast(${p} as ${type})` : p;
  }
}
