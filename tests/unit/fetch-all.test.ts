import { describe, expect, it } from 'vitest';
import { fetchAll, MAX_ROWS } from '@/lib/fetch-all';

/** A table of `n` rows behind a server that caps every answer at `maxRows`, recording the ranges asked for. */
function table(n: number, maxRows = MAX_ROWS) {
  const rows = Array.from({ length: n }, (_, i) => i);
  const asked: [number, number][] = [];
  const page = (from: number, to: number) => {
    asked.push([from, to]);
    return Promise.resolve({ data: rows.slice(from, Math.min(to + 1, from + maxRows)), error: null });
  };
  return { rows, asked, page };
}

describe('fetchAll', () => {
  it('pages past the cap until a short page, in order, without gaps or repeats', async () => {
    const t = table(2345);
    expect(await fetchAll(t.page)).toEqual(t.rows);
    expect(t.asked).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2999],
    ]);
  });

  it('asks once more after an exactly full last page and stops at the empty one', async () => {
    const t = table(2000);
    expect(await fetchAll(t.page)).toEqual(t.rows);
    expect(t.asked).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2999],
    ]);
  });

  it('makes one request for a short list and returns an empty list as such', async () => {
    const short = table(3);
    expect(await fetchAll(short.page)).toEqual([0, 1, 2]);
    expect(short.asked).toHaveLength(1);
    const none = table(0);
    expect(await fetchAll(none.page)).toEqual([]);
    expect(await fetchAll(() => Promise.resolve({ data: null, error: null }))).toEqual([]);
  });

  it('uses the page size given', async () => {
    const t = table(25);
    expect(await fetchAll(t.page, 10)).toEqual(t.rows);
    expect(t.asked).toEqual([
      [0, 9],
      [10, 19],
      [20, 29],
    ]);
  });

  it('throws the error of any page: never a partial list', async () => {
    const failure = { message: 'boom', code: '57014' };
    let calls = 0;
    const page = (from: number, to: number) => {
      calls++;
      return Promise.resolve(
        from === 0 ? { data: Array.from({ length: to - from + 1 }, (_, i) => i), error: null } : { data: null, error: failure },
      );
    };
    await expect(fetchAll(page)).rejects.toBe(failure);
    expect(calls).toBe(2);
  });

  it('refuses a page longer than asked for (a range the server ignored) and a bad page size', async () => {
    const all = Array.from({ length: 1500 }, (_, i) => i);
    await expect(fetchAll(() => Promise.resolve({ data: all, error: null }))).rejects.toThrow(/1500 rows for a range of 1000/);
    await expect(fetchAll(table(1).page, 0)).rejects.toThrow(RangeError);
  });
});
