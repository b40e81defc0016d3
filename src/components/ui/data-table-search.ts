/**
 * The URL search params every data table shares: `sort=<column>.<asc|desc>`, `hide=<a>,<b>` (hidden
 * columns), `page=<n>` (1-based, absent on page 1) and a text filter `q`. Plain functions, no zod:
 * route options (validateSearch) are part of the first download of /start, zod is not. Every parser
 * drops a malformed or unknown value (the default applies) and never throws: a hand-typed or stale
 * link shows the table, never an error page.
 */
import type { SortingState, VisibilityState } from '@tanstack/react-table';

export interface TableSearch {
  sort?: string;
  hide?: string;
  page?: number;
  q?: string;
}

/** `<column>.<asc|desc>` with a known column, else undefined. */
export function parseSort(value: unknown, columns: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([a-z_]+)\.(asc|desc)$/.exec(value);
  return m && columns.includes(m[1]!) ? value : undefined;
}

/** Comma-separated known column ids, deduplicated, in the given order; undefined when none. */
export function parseHide(value: unknown, columns: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const ids = [...new Set(value.split(',').map((s) => s.trim()))].filter((id) => columns.includes(id));
  return ids.length ? ids.join(',') : undefined;
}

/** A page number 2..10000 (page 1 is the default and not written). */
export function parsePage(value: unknown): number | undefined {
  const page = typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(page) && page > 1 && page <= 10000 ? page : undefined;
}

/** A trimmed text of at most 100 characters; a number typed into the URL counts as text. */
export function parseText(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim().slice(0, 100) : typeof value === 'number' ? String(value) : '';
  return text || undefined;
}

/** One of the allowed values, else undefined. */
export function parseOneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return allowed.find((a) => a === value);
}

/** TanStack Table's sorting state from `sort`. */
export function sortingFrom(sort: string | undefined): SortingState {
  if (!sort) return [];
  const [id, dir] = sort.split('.');
  return id ? [{ id, desc: dir === 'desc' }] : [];
}

/** `sort` from TanStack Table's sorting state (the first column only). */
export function sortFrom(sorting: SortingState): string | undefined {
  const first = sorting[0];
  return first ? `${first.id}.${first.desc ? 'desc' : 'asc'}` : undefined;
}

/** TanStack Table's visibility state from `hide`. */
export function visibilityFrom(hide: string | undefined): VisibilityState {
  return Object.fromEntries(
    (hide ?? '')
      .split(',')
      .filter(Boolean)
      .map((id) => [id, false]),
  );
}

/** `hide` from TanStack Table's visibility state. */
export function hideFrom(visibility: VisibilityState): string | undefined {
  const ids = Object.entries(visibility)
    .filter(([, visible]) => !visible)
    .map(([id]) => id);
  return ids.length ? ids.join(',') : undefined;
}
