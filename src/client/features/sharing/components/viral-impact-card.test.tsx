import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ViralStats } from '../../../../common/sharing';
import { Share } from '../../../components/share';
import { createQueryClient } from '../../../lib/query-client';
import { sendJson, startTestServer } from '../../../test/http-server';
import { countShare, SHARE_EVENTS_PATH, VIRAL_STATS_PATH } from '../api';
import { ViralImpactCard } from './viral-impact-card';

let server: Awaited<ReturnType<typeof startTestServer>>;
let stats: ViralStats | undefined;
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.url === VIRAL_STATS_PATH && stats) sendJson(res, 200, stats);
    else if (req.url === SHARE_EVENTS_PATH) sendJson(res, 201, { message: 'Share counted' });
    else sendJson(res, 500, { message: 'down' });
  });
});
afterAll(() => server.close());
afterEach(() => server.reset());

const renderCard = () => {
  server.routeFetch();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ViralImpactCard />
    </QueryClientProvider>,
  );
};
const figure = (label: string) => within(screen.getByText(label).closest('div')!);

describe("'Viral Impact'", () => {
  it('shows the measured figures, and says a figure that is not measured is not', async () => {
    stats = {
      listenersNow: 12,
      peakToday: 40,
      sharesToday: 3,
      sharesTotal: 1204,
      hoursListenedToday: 7.25,
      countries: null,
    };
    renderCard();
    expect(await screen.findByText('12')).toBeInTheDocument();
    expect(figure('Peak listeners').getByText('40')).toBeInTheDocument();
    expect(figure('Shares today').getByText('3')).toBeInTheDocument();
    expect(figure('Total shares').getByText('1,204')).toBeInTheDocument();
    expect(figure('Hours listened').getByText('7.3')).toBeInTheDocument();
    expect(figure('Countries').getByText('Not measured')).toBeInTheDocument();
  });

  it('says the figures cannot be loaded rather than inventing any', async () => {
    stats = undefined;
    renderCard();
    expect(
      await screen.findByText('The figures cannot be loaded right now.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('counts a share with its channel', async () => {
    server.routeFetch();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: async () => {} },
      configurable: true,
    });
    render(<Share url="https://radio.example/" title="T" text="Listen" onShared={countShare} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy Link' }));
    await vi.waitFor(() =>
      expect(server.requests.find((r) => r.url === SHARE_EVENTS_PATH)?.body).toBe('{"channel":"copy"}'),
    );
  });
});
