/**
 * Every REST answer is capped at max_rows (supabase/config.toml, 1,000 as on hosted Supabase),
 * silently: a longer list simply ends at row 1,000. A list shown whole must be fetched in pages.
 */
export const MAX_ROWS = 1000;

/** The part of a supabase-js answer fetchAll needs (a PostgrestResponse of a list). */
interface PageResult<T> {
  data: T[] | null;
  error: unknown;
}

/**
 * All rows of a query, fetched in pages of `pageSize` with `.range()` until a short page.
 * `page(from, to)` must build a fresh query each time and apply `.range(from, to)` to it, with an
 * order that is total (ends in a unique column such as id), or pages may overlap or skip rows.
 * `pageSize` must not exceed max_rows: a page cut by the server would look like the last one.
 * An error on any page is thrown (the caller never gets a partial list).
 */
export async function fetchAll<T>(page: (from: number, to: number) => PromiseLike<PageResult<T>>, pageSize = MAX_ROWS): Promise<T[]> {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  const rows: T[] = [];
  for (let from = 0; ; from += pageSize) {
    const { data, error } = await page(from, from + pageSize - 1);
    if (error) throw error;
    const got = data ?? [];
    // A server that ignored the range would otherwise be asked for the same rows forever.
    if (got.length > pageSize) throw new Error(`fetchAll: a page of ${got.length} rows for a range of ${pageSize}`);
    for (const row of got) rows.push(row);
    if (got.length < pageSize) return rows;
  }
}
