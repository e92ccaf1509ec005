import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PREFETCH_DELAY_MS, PREFETCH_FRESHNESS_MS } from '../../../common/ui';
import { createQueryClient } from '../../lib/query-client';
import { sendJson, startTestServer } from '../../test/http-server';
import { FEATURED_CONTENT_PATH } from '../../features/featured-content';
import { PROGRAMS_TODAY_PATH } from '../../features/programs';
import { usePrefetchOnActivity } from './use-prefetch-on-activity';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer((_req, res) => sendJson(res, 200, []));
});
afterAll(() => server.close());
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => {
  vi.useRealTimers();
  server.reset();
});

function Prefetcher() {
  usePrefetchOnActivity();
  return null;
}

function mount() {
  server.routeFetch();
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <Prefetcher />
    </QueryClientProvider>,
  );
  return client;
}

/** Lets the prefetch requests reach the real server and come back. */
const settle = (client: ReturnType<typeof createQueryClient>) =>
  vi.waitFor(() => expect(client.isFetching()).toBe(0), { timeout: 2000, interval: 5 });

const paths = () => server.requests.map((r) => r.url).sort();

describe('prefetch (SPEC.md section 4)', () => {
  it("prefetches the featured list and today's programs 3 s after load", async () => {
    const client = mount();
    act(() => vi.advanceTimersByTime(PREFETCH_DELAY_MS.load - 1));
    expect(server.requests).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    await settle(client);
    expect(paths()).toEqual([FEATURED_CONTENT_PATH, PROGRAMS_TODAY_PATH]);
  });

  it('debounces mouse moves by 2 s and leaves fresh data alone', async () => {
    const client = mount();
    act(() => vi.advanceTimersByTime(PREFETCH_DELAY_MS.load));
    await settle(client);
    server.requests.length = 0;

    fireEvent.mouseMove(window);
    act(() => vi.advanceTimersByTime(1500));
    fireEvent.mouseMove(window);
    act(() => vi.advanceTimersByTime(PREFETCH_DELAY_MS.mouseMove));
    await settle(client);
    expect(server.requests).toHaveLength(0); // both still fresh

    vi.setSystemTime(Date.now() + PREFETCH_FRESHNESS_MS.featured + 1);
    fireEvent.mouseMove(window);
    act(() => vi.advanceTimersByTime(PREFETCH_DELAY_MS.mouseMove - 1));
    expect(server.requests).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    await settle(client);
    expect(paths()).toEqual([FEATURED_CONTENT_PATH]); // programs stay fresh for 5 min
  });

  it('prefetches 0.5 s after coming online and at once on window focus', async () => {
    const client = mount();
    act(() => {
      window.dispatchEvent(new Event('online'));
      vi.advanceTimersByTime(PREFETCH_DELAY_MS.online);
    });
    await settle(client);
    expect(paths()).toEqual([FEATURED_CONTENT_PATH, PROGRAMS_TODAY_PATH]);
    server.requests.length = 0;

    vi.setSystemTime(Date.now() + PREFETCH_FRESHNESS_MS.programs + 1);
    act(() => {
      window.dispatchEvent(new Event('focus'));
      vi.advanceTimersByTime(PREFETCH_DELAY_MS.focus);
    });
    await settle(client);
    expect(paths()).toEqual([FEATURED_CONTENT_PATH, PROGRAMS_TODAY_PATH]);
  });
});
