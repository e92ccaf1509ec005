import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FeaturedItem } from '../../../../common/featured-content';
import { createQueryClient } from '../../../lib/query-client';
import { sendJson, startTestServer } from '../../../test/http-server';
import { FEATURED_CONTENT_PATH } from '../api/featured-content';
import { FeaturedSection } from './featured-section';
import { paragraphsOf } from './sermon-transcript';

const TRANSCRIPT = '/api/speech/transcripts/m1/transcript.vtt';
const VTT = `WEBVTT

00:00:00.500 --> 00:00:03.200
Today we read from the book of Psalms.

00:00:03.400 --> 00:00:06.400
The Lord is my shepherd.

00:00:09.000 --> 00:00:11.000
He restores my soul.
`;
let items: FeaturedItem[] = [];
let listStatus = 200;
let hold = false;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (hold) return;
    const play = req.url.match(/^\/api\/featured-content\/([^/]+)\/play$/);
    if (req.method === 'POST' && play) {
      const item = items.find((i) => i.id === play[1]);
      if (item) item.playCount += 1;
      return void sendJson(res, 200, { playCount: item?.playCount });
    }
    if (req.url === TRANSCRIPT) {
      res.writeHead(200, { 'Content-Type': 'text/vtt; charset=utf-8' });
      return void res.end(VTT);
    }
    if (req.url === FEATURED_CONTENT_PATH)
      return void sendJson(res, listStatus, listStatus === 200 ? items : { message: 'Not found' });
    sendJson(res, 404, { message: 'Not found' });
  });
});
afterAll(() => server.close());
afterEach(() => {
  vi.restoreAllMocks();
  server.reset();
  hold = false;
  listStatus = 200;
});

function renderSection() {
  server.routeFetch();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FeaturedSection />
    </QueryClientProvider>,
  );
}

const item = (over: Partial<FeaturedItem>): FeaturedItem => ({
  id: 'x',
  type: 'sermon',
  title: 'Title',
  description: 'About it',
  imageUrl: null,
  duration: '40 min',
  playCount: 0,
  ...over,
});

describe('Featured Content', () => {
  it('shows 2 skeletons while loading', () => {
    hold = true;
    renderSection();
    expect(screen.getAllByTestId('skeleton')).toHaveLength(2);
  });

  it("shows 'sermon' as a sermon and any other type as a devotion", async () => {
    items = [
      item({ id: 'a', type: 'sermon', title: 'Walking in Faith' }),
      item({ id: 'b', type: 'music', title: 'Songs of Hope' }),
    ];
    renderSection();
    const sermon = (await screen.findByRole('heading', { name: 'Walking in Faith' })).parentElement!;
    const music = screen.getByRole('heading', { name: 'Songs of Hope' }).parentElement!;
    expect(within(sermon).getByText('Sermon')).toBeInTheDocument();
    expect(within(music).getByText('Devotion')).toBeInTheDocument();
  });

  it('offers Play and a play count only on items that have audio', async () => {
    items = [
      item({ id: 'a', title: 'Walking in Faith', audioUrl: '/uploads/faith.mp3', playCount: 2 }),
      item({ id: 'b', type: 'announcement', title: 'Prayer Night', audioUrl: null, playCount: 0 }),
    ];
    renderSection();
    await screen.findByRole('heading', { name: 'Prayer Night' });
    expect(screen.getByRole('button', { name: 'Play Walking in Faith' })).toBeInTheDocument();
    expect(screen.getByText('2 plays')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Play Prayer Night' })).not.toBeInTheDocument();
    expect(screen.queryByText('0 plays')).not.toBeInTheDocument();
  });

  it('records a play with POST .../play and then reloads the list', async () => {
    const user = userEvent.setup();
    // jsdom has no media playback: play() starts nothing, so it stands in with the event a browser fires.
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      this.dispatchEvent(new Event('play'));
      return Promise.resolve();
    });
    items = [item({ id: 'a', title: 'Walking in Faith', audioUrl: '/uploads/faith.mp3', playCount: 3 })];
    renderSection();
    await screen.findByText('3 plays');
    await user.click(screen.getByRole('button', { name: 'Play Walking in Faith' }));
    await screen.findByText('4 plays');
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${FEATURED_CONTENT_PATH}`,
      `POST ${FEATURED_CONTENT_PATH}/a/play`,
      `GET ${FEATURED_CONTENT_PATH}`,
    ]);
    expect(server.requests[1]?.body).toBe('');
  });

  it('copes with the list not being available', async () => {
    listStatus = 404;
    renderSection();
    await waitFor(() => expect(screen.queryAllByTestId('skeleton')).toHaveLength(0));
    expect(screen.getByText('Sermons and devotions will appear here soon.')).toBeInTheDocument();
  });

  it("offers a sermon's transcript only where it has one, and shows its words when opened", async () => {
    items = [
      item({ id: 'a', title: 'The Good Shepherd', audioUrl: '/media/m1', transcriptUrl: TRANSCRIPT }),
      item({ id: 'b', title: 'Without one', audioUrl: '/media/m2' }),
    ];
    renderSection();
    const user = userEvent.setup();
    const toggle = await screen.findByText('Read the transcript', { exact: false, selector: 'summary' });
    expect(screen.getAllByText('Read the transcript', { exact: false, selector: 'summary' })).toHaveLength(1);
    expect(toggle).toHaveTextContent('Read the transcript of The Good Shepherd');
    await user.click(toggle);
    const shown = await screen.findByTestId('sermon-transcript');
    await within(shown).findByText('Today we read from the book of Psalms. The Lord is my shepherd.');
    expect(within(shown).getByText('He restores my soul.')).toBeInTheDocument();
    expect(within(shown).getByRole('link', { name: 'Download it (WebVTT)' })).toHaveAttribute(
      'href',
      TRANSCRIPT,
    );
  });

  it('reads a WebVTT transcript as paragraphs broken where the speaker paused', () => {
    expect(paragraphsOf(VTT)).toEqual([
      'Today we read from the book of Psalms. The Lord is my shepherd.',
      'He restores my soul.',
    ]);
    expect(paragraphsOf('WEBVTT\r\n\r\n01:00:00.000 --> 01:00:01.000 align:start\r\nAmen\r\n')).toEqual([
      'Amen',
    ]);
    expect(paragraphsOf('WEBVTT\n')).toEqual([]);
  });
});
