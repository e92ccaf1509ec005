import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Program } from '../../../../common/programs';
import { FALLBACK_STATION } from '../../../lib/station';
import { createQueryClient } from '../../../lib/query-client';
import { sendJson, startTestServer } from '../../../test/http-server';
import { PROGRAMS_TODAY_PATH } from '../api';
import { ProgramsSection } from './programs-section';

const program = (over: Partial<Program>): Program => ({
  id: over.title ?? 'p',
  title: 'Program',
  startTime: '10:00',
  duration: 60,
  status: 'UPCOMING',
  isCurrent: false,
  isLive: false,
  isFuture: true,
  ...over,
});

let server: Awaited<ReturnType<typeof startTestServer>>;
let programs: Program[] = [];
let hold = false;
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (hold) return; // never answers: the section stays loading
    if (req.url === PROGRAMS_TODAY_PATH) sendJson(res, 200, programs);
    else sendJson(res, 404, { message: 'Not found' });
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  hold = false;
});

function renderSection(client: QueryClient = createQueryClient()) {
  server.routeFetch();
  render(
    <QueryClientProvider client={client}>
      <ProgramsSection />
    </QueryClientProvider>,
  );
  return client;
}

describe("Today's Programs", () => {
  it('shows 4 skeletons while loading, with the live card above', () => {
    hold = true;
    renderSection();
    expect(screen.getByText('Live Broadcasting Now')).toBeInTheDocument();
    expect(screen.getAllByTestId('skeleton')).toHaveLength(4);
  });

  it('leaves out the LIVE entry (the live card stands for it) and styles current and future cards apart', async () => {
    programs = [
      program({ title: 'Morning Prayer', status: 'LIVE', isCurrent: true, isLive: true, isFuture: false }),
      program({ title: 'Bible Hour', status: 'ON AIR', isCurrent: true, isFuture: false, duration: 45 }),
      program({ title: 'Evening Worship', status: 'SOON', duration: '1 hour', speaker: 'Worship Team' }),
    ];
    renderSection();
    const list = await screen.findByRole('list');
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Bible Hour',
      'Evening Worship',
    ]);
    expect(screen.getByText('On air: Morning Prayer')).toBeInTheDocument();
    expect(cards[0]).toHaveAttribute('data-kind', 'current');
    expect(cards[1]).toHaveAttribute('data-kind', 'future');
    expect(cards[0]?.className).not.toBe(cards[1]?.className);
  });

  it("shows a number duration as 'N min', any other as written, and the station as the default speaker", async () => {
    programs = [
      program({ title: 'Bible Hour', duration: 45 }),
      program({ title: 'Evening Worship', duration: '1 hour', speaker: 'Worship Team' }),
    ];
    renderSection();
    const [first, second] = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(first).toHaveTextContent('45 min');
    expect(first).toHaveTextContent(FALLBACK_STATION.name);
    expect(second).toHaveTextContent('1 hour');
    expect(second).toHaveTextContent('Worship Team');
  });

  it("says 'Upcoming programs will appear here' when nothing but the live entry is left", async () => {
    programs = [
      program({ title: 'Morning Prayer', status: 'LIVE', isCurrent: true, isLive: true, isFuture: false }),
    ];
    renderSection();
    expect(await screen.findByText('Upcoming programs will appear here')).toBeInTheDocument();
    expect(screen.queryAllByTestId('skeleton')).toHaveLength(0);
  });

  it('reads GET /api/programs/today', async () => {
    programs = [];
    renderSection();
    await screen.findByText('Upcoming programs will appear here');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${PROGRAMS_TODAY_PATH}`]);
  });
});
