import type { Json } from '@/lib/database.types';
import { formatBerlinDateTime } from '@/lib/dates';

/** A timestamp as to_jsonb writes it (2027-05-11T10:00:00+00:00, with or without fractions). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;

/** The longest value shown in full; longer ones (snapshots, breakdowns) are cut with an ellipsis. */
const MAX = 160;

/**
 * A stored value as a person reads it: instants in Berlin time, booleans as yes/no, objects as
 * compact JSON; null is `empty` (the caller's word for it).
 */
export function formatAuditValue(value: Json | undefined, locale: string, words: { empty: string; yes: string; no: string }): string {
  if (value === null || value === undefined || value === '') return words.empty;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return value.toLocaleString(locale);
  if (typeof value === 'string') {
    const text = INSTANT.test(value) ? formatBerlinDateTime(value, locale) : value;
    return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
  }
  const json = JSON.stringify(value);
  return json.length > MAX ? `${json.slice(0, MAX - 1)}…` : json;
}

const isEmpty = (v: Json | undefined) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The columns an entry shows, in the order of their labels. An update shows every changed
 * column; a created or deleted row only its filled columns, without its key (shown beside the
 * table) and its own timestamps (the entry's time says when).
 */
export function auditColumns(
  entry: {
    action: 'insert' | 'update' | 'delete';
    row_key: string;
    old_values: Record<string, Json> | null;
    new_values: Record<string, Json> | null;
  },
  label: (column: string) => string,
  locale: string,
): string[] {
  const columns = [...new Set([...Object.keys(entry.old_values ?? {}), ...Object.keys(entry.new_values ?? {})])];
  const row = entry.action === 'delete' ? entry.old_values : entry.new_values;
  const shown =
    entry.action === 'update'
      ? columns
      : columns.filter(
          (c) => !isEmpty(row?.[c]) && c !== 'created_at' && c !== 'updated_at' && !(c === 'id' && row?.[c] === entry.row_key),
        );
  return shown.sort((a, b) => label(a).localeCompare(label(b), locale));
}
