import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { sendJson, startTestServer } from '../../../test/http-server';
import { PRAYER_REQUESTS_PATH } from '../api';
import { PrayerTab } from './prayer-tab';

interface Row {
  id: string;
  name: string | null;
  request: string;
  createdAt: string;
  prayedAt: string | null;
  prayedBy: string | null;
}
let rows: Row[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const prayed = req.url.match(/^\/api\/prayer-requests\/([^/]+)\/prayed$/);
    const one = req.url.match(/^\/api\/prayer-requests\/([^/]+)$/);
    if (req.method === 'GET' && req.url === PRAYER_REQUESTS_PATH) return void sendJson(res, 200, rows);
    if (req.method === 'POST' && prayed) {
      const row = rows.find((r) => r.id === prayed[1]);
      if (row) Object.assign(row, { prayedAt: '2026-01-02T09:00:00.000Z', prayedBy: 'pastor' });
      return void sendJson(res, row ? 200 : 404, row ?? { message: 'Not found' });
    }
    if (req.method === 'DELETE' && one) {
      rows = rows.filter((r) => r.id !== one[1]);
      return void sendJson(res, 200, {});
    }
    sendJson(res, 404, { message: 'Not found' });
  });
});
afterAll(() => server.close());
afterEach(() => server.reset());

function renderTab() {
  rows = [
    {
      id: '2',
      name: null,
      request: 'Newest request',
      createdAt: '2026-01-02T08:00:00.000Z',
      prayedAt: null,
      prayedBy: null,
    },
    {
      id: '1',
      name: 'Ruth',
      request: 'Older request',
      createdAt: '2026-01-01T08:00:00.000Z',
      prayedAt: null,
      prayedBy: null,
    },
  ];
  server.routeFetch();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PrayerTab />
    </QueryClientProvider>,
  );
}

describe('PrayerTab', () => {
  it('lists open requests newest first with their count', async () => {
    renderTab();
    const list = await screen.findByRole('list', { name: 'Prayer requests' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Newest request');
    expect(items[0]).toHaveTextContent('Anonymous');
    expect(items[1]).toHaveTextContent('Ruth');
    expect(screen.getByText('2 open requests')).toBeInTheDocument();
  });

  it('marks one prayed for: it leaves Open and shows who and when under Prayed for', async () => {
    renderTab();
    const list = await screen.findByRole('list', { name: 'Prayer requests' });
    await userEvent.click(within(list).getAllByRole('button', { name: 'Mark prayed' })[0]!);
    await waitFor(() => expect(screen.queryByText('Newest request')).not.toBeInTheDocument());
    expect(screen.getByText('1 open request')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Prayed for' }));
    expect(await screen.findByText('Newest request')).toBeInTheDocument();
    expect(screen.getByText(/Prayed for by pastor on/)).toBeInTheDocument();
    expect(
      server.requests.some((r) => r.method === 'POST' && r.url === '/api/prayer-requests/2/prayed'),
    ).toBe(true);
  });

  it('deletes one', async () => {
    renderTab();
    await screen.findByText('Older request');
    const item = screen.getByText('Older request').closest('li')!;
    await userEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Older request')).not.toBeInTheDocument());
    expect(rows.map((r) => r.id)).toEqual(['2']);
  });
});
