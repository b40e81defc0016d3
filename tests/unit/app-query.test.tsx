/**
 * src/lib/query.tsx: the shell, the start page and booking step 1 query without react-query's client until a
 * page loads it; then the client has what they fetched, and they follow it (invalidations
 * refetch, setQueryData shows). The module's state is per file: the tests run in order.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadQueryClient, peekQueryClient, queryContext, setQueryData, useAppQuery } from '@/lib/query';

afterEach(cleanup);

let served = 'first';
const fetchNews = vi.fn(async () => served);
const newsOptions = { queryKey: ['news', 'active'], queryFn: fetchNews, staleTime: 5 * 60_000 };
const identityOptions = { queryKey: ['identity'], queryFn: vi.fn(async () => ({ status: 'loggedIn' })), staleTime: Infinity, retry: false };

function News() {
  const news = useAppQuery(newsOptions);
  return <p data-testid="news">{news.isPending ? 'pending' : news.isError ? `error ${news.error?.message}` : news.data}</p>;
}

function Who() {
  const identity = useAppQuery(identityOptions);
  return <p data-testid="who">{identity.data?.status ?? 'unknown'}</p>;
}

describe('useAppQuery before and after the QueryClient loads', () => {
  it('fetches with the query function and shows pending, then the data, without loading the client', async () => {
    render(<News />);
    expect(screen.getByTestId('news').textContent).toBe('pending');
    await waitFor(() => expect(screen.getByTestId('news').textContent).toBe('first'));
    expect(fetchNews).toHaveBeenCalledTimes(1);
    expect(peekQueryClient()).toBeUndefined();
  });

  it('serves fresh data from its cache on the next mount, and data set by setQueryData without a fetch', async () => {
    setQueryData(['identity'], { status: 'anonymous' });
    render(
      <>
        <News />
        <Who />
      </>,
    );
    expect(screen.getByTestId('news').textContent).toBe('first');
    expect(screen.getByTestId('who').textContent).toBe('anonymous');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(fetchNews).toHaveBeenCalledTimes(1);
    expect(identityOptions.queryFn).not.toHaveBeenCalled();
  });

  it('retries a failed fetch once, then shows the error', async () => {
    const failing = vi.fn(async (): Promise<string> => {
      throw new Error('offline');
    });
    function Failing() {
      const query = useAppQuery({ queryKey: ['failing'], queryFn: failing });
      return <p data-testid="failing">{query.isPending ? 'pending' : query.isError ? query.error?.message : 'ok'}</p>;
    }
    render(<Failing />);
    await waitFor(() => expect(screen.getByTestId('failing').textContent).toBe('offline'), { timeout: 3000 });
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('a query with enabled false does not fetch (pending) until it is enabled, as useQuery', async () => {
    const fetchFairs = vi.fn(async () => 'fairs');
    function Fairs({ on }: { on: boolean }) {
      const query = useAppQuery({ queryKey: ['fairs'], queryFn: fetchFairs, enabled: on });
      return <p data-testid="fairs">{query.isPending ? 'pending' : query.data}</p>;
    }
    const { rerender } = render(<Fairs on={false} />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByTestId('fairs').textContent).toBe('pending');
    expect(fetchFairs).not.toHaveBeenCalled();
    rerender(<Fairs on />);
    await waitFor(() => expect(screen.getByTestId('fairs').textContent).toBe('fairs'));
    expect(fetchFairs).toHaveBeenCalledTimes(1);
    expect(peekQueryClient()).toBeUndefined();
  });

  it('hands its data to the client when it loads; mounted components then follow the client', async () => {
    render(
      <>
        <News />
        <Who />
      </>,
    );
    let client!: Awaited<ReturnType<typeof loadQueryClient>>;
    await act(async () => {
      client = await loadQueryClient();
    });
    expect(peekQueryClient()).toBe(client);
    // What was fetched or set before is in the client's cache (fresh: no refetch).
    expect(client.getQueryData(['news', 'active'])).toBe('first');
    expect(client.getQueryData(['identity'])).toEqual({ status: 'anonymous' });
    expect(screen.getByTestId('news').textContent).toBe('first');
    expect(fetchNews).toHaveBeenCalledTimes(1);
    // setQueryData on the client shows (notified as react-query notifies useQuery: batched, next task).
    act(() => void client.setQueryData(['identity'], { status: 'guest', userId: 'u' }));
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('guest'));
    // An invalidation (as a mutation's) refetches the mounted query.
    served = 'second';
    await act(() => client.invalidateQueries({ queryKey: ['news'] }));
    await waitFor(() => expect(screen.getByTestId('news').textContent).toBe('second'));
    expect(fetchNews).toHaveBeenCalledTimes(2);
  });

  it('the router context loads the client for loaders: ensureQueryData answers from its cache', async () => {
    await expect(queryContext.ensureQueryData(newsOptions)).resolves.toBe('second');
    served = 'third';
    await queryContext.prefetchQuery({ queryKey: ['other'], queryFn: async () => served });
    expect(peekQueryClient()!.getQueryData(['other'])).toBe('third');
  });
});
