import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../../components/ui/use-toast';
import { Toaster } from '../../../components/ui/toaster';
import { createQueryClient } from '../../../lib/query-client';
import { getStation } from '../../../lib/station';
import { AudioPlayer, type EngineFactory } from '../../player';
import { StreamRecorder } from '../stream-recorder';
import { RecorderSection } from './recorder-section';

/** The type the fake browser records in (the first of SPEC.md's preference order it supports). */
let recordedType = 'audio/webm';

class FakeMediaRecorder {
  static isTypeSupported = (type: string) => type === recordedType;
  state = 'inactive';
  mimeType = recordedType;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror = null;
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['x'], { type: this.mimeType }) });
    this.onstop?.();
  }
}

const posted: unknown[] = [];
/** How the station answers the next clip request: made, or refused with its status and message. */
let clipAnswer: { status: number; message?: string } = { status: 201 };

function setup(localRecording = true) {
  const engine: EngineFactory = (audio) => ({ audio, play: async () => {}, stop: async () => {} });
  const audio = document.createElement('audio') as HTMLAudioElement & { captureStream: () => MediaStream };
  audio.captureStream = () => ({ getTracks: () => [] }) as unknown as MediaStream;
  const player = new AudioPlayer({ engine, audio, method: 'mediasource' });
  const revoked: string[] = [];
  const recorder = new StreamRecorder({
    MediaRecorder: FakeMediaRecorder as unknown as typeof MediaRecorder,
    createObjectURL: () => 'blob:clip-1',
    revokeObjectURL: (url) => revoked.push(url),
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RecorderSection player={player} recorder={recorder} localRecording={localRecording} />
      <Toaster />
    </QueryClientProvider>,
  );
  const startPlaying = () =>
    act(() => {
      player.setStreamUrl('/stream');
      player.play();
      audio.dispatchEvent(new Event('playing'));
    });
  return { player, recorder, revoked, startPlaying };
}

// Each test renders the section, the list dialog and the toasts in jsdom: seconds on a busy machine.
describe('RecorderSection', { timeout: 20_000 }, () => {
  // The list loads its code when first opened; loaded here once, no test waits on a cold import.
  beforeAll(() => import('./recordings-dialog'));
  beforeEach(() => {
    posted.length = 0;
    clipAnswer = { status: 201 };
    recordedType = 'audio/webm';
    vi.stubGlobal(
      'WebSocket',
      class {
        close() {}
      },
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/api/radio/current')
          return Response.json({
            current_track: { title: 'Morning Hymns', artist: 'Choir', artwork_url: null, started_at: 0 },
            is_live: false,
            listeners: 1,
            stream_clock: 50,
          });
        if (url === '/api/clips' && init?.method === 'POST') {
          posted.push(JSON.parse(String(init.body)));
          if (clipAnswer.status !== 201)
            return Response.json({ message: clipAnswer.message }, { status: clipAnswer.status });
          return Response.json(
            {
              id: 'c1',
              title: 'Saved',
              audioUrl: '/api/clips/c1/audio',
              shareUrl: 'http://x/clips/c1',
              duration: 30,
            },
            { status: 201 },
          );
        }
        return new Response('', { status: 404 });
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    act(() => clearToasts());
    setNavigator('share', undefined);
    setNavigator('clipboard', undefined);
  });

  /** What the browser offers the page on navigator (jsdom has neither share nor clipboard). */
  function setNavigator(key: 'share' | 'clipboard', value: unknown) {
    Object.defineProperty(window.navigator, key, { value, configurable: true, writable: true });
  }

  /** Records a clip titled `title` while the player hears stream-clock `from` to `to`, then opens the list. */
  async function recordFromTo(title: string, from: number, to: number) {
    const { player, startPlaying } = setup();
    startPlaying();
    act(() => player.clock.heardAt(from, 0));
    fireEvent.click(await screen.findByRole('button', { name: /Record a Clip/ }));
    fireEvent.change(screen.getByLabelText(/Clip title/), { target: { value: title } });
    fireEvent.click(screen.getByRole('button', { name: 'Start Recording' }));
    act(() => player.clock.heardAt(to, 0));
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    fireEvent.click(screen.getByRole('button', { name: /View Recordings \(1\)/ }));
    return screen.findByTestId('recording');
  }

  /** The clipboard a browser offers the page (jsdom has none): what was written to it. */
  function clipboard() {
    const written: string[] = [];
    setNavigator('clipboard', { writeText: async (text: string) => void written.push(text) });
    return written;
  }

  it('Share asks the station for the clip of the recorded stream-clock seconds and copies its page', async () => {
    const written = clipboard();
    const item = await recordFromTo('Psalm 23', 500.5, 512);
    fireEvent.click(within(item).getByRole('button', { name: 'Share' }));
    await screen.findByText('Copied to clipboard!');
    expect(screen.getByText('Share this message to spread the word')).toBeInTheDocument();
    expect(posted).toEqual([
      {
        range: { from: 500.5, to: 512 },
        title: 'Psalm 23',
        description: 'A blessed moment from our live Christian radio broadcast',
      },
    ]);
    expect(written).toEqual([
      `🎙️ "Psalm 23" — recorded live on ${getStation().name}. Listen with me: http://x/clips/c1`,
    ]);
    // Shared again, the same clip is shared: the station is not asked twice.
    fireEvent.click(within(item).getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(written).toHaveLength(2));
    expect(written[1]).toBe(written[0]);
    expect(posted).toHaveLength(1);
  });

  it("shares the clip's page natively where the browser can: 'Shared successfully!'", async () => {
    const shared: ShareData[] = [];
    setNavigator('share', async (data: ShareData) => void shared.push(data));
    const item = await recordFromTo('Psalm 23', 40, 55);
    fireEvent.click(within(item).getByRole('button', { name: 'Share' }));
    await screen.findByText('Shared successfully!');
    expect(shared).toEqual([
      {
        title: 'Psalm 23',
        text: `🎙️ "Psalm 23" — recorded live on ${getStation().name}. Listen with me:`,
        url: 'http://x/clips/c1',
      },
    ]);
    expect(posted).toEqual([expect.objectContaining({ range: { from: 40, to: 55 } })]);
  });

  it('says so when the station no longer keeps the moment, and copies nothing', async () => {
    const written = clipboard();
    const message =
      'That moment is no longer available: the station keeps only the last 5 minutes of its broadcast';
    clipAnswer = { status: 409, message };
    const item = await recordFromTo('Old', 100, 110);
    fireEvent.click(within(item).getByRole('button', { name: 'Share' }));
    await screen.findByText('Could not share this recording');
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(written).toEqual([]);
  });

  it.each([
    ['audio/mp4', 'psalm_23.m4a'],
    ['audio/webm', 'psalm_23.webm'],
    ['audio/wav', 'psalm_23.wav'],
  ])('a recording in %s downloads as %s', async (type, name) => {
    recordedType = type;
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const item = await recordFromTo('Psalm 23', 10, 25);
    fireEvent.click(within(item).getByRole('button', { name: 'Download' }));
    expect(clicked).toEqual([name]);
  });

  it("is disabled with 'Turn up your speakers!' until the radio plays", () => {
    const { startPlaying } = setup();
    expect(screen.getByText(/Turn up your speakers!/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Record a Clip/ })).toBeDisabled();
    startPlaying();
    expect(screen.queryByText(/Turn up your speakers!/)).toBeNull();
    expect(screen.getByRole('button', { name: /Record a Clip/ })).toBeEnabled();
  });

  it('records with the default title and length, ticks, stops, lists, and deletes freeing the url', async () => {
    const { startPlaying, revoked } = setup();
    await screen.findByRole('button', { name: /View Recordings \(0\)/ });
    startPlaying();
    await waitFor(() => expect(screen.getByRole('button', { name: /Record a Clip/ })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: /Record a Clip/ }));
    expect(screen.getByLabelText('Clip length')).toHaveValue('30');
    expect(screen.getByLabelText(/Clip title/)).toHaveAttribute('aria-required', 'true');
    // The default title names the track on air once it is known.
    await waitFor(() =>
      expect(screen.getByLabelText(/Clip title/)).toHaveAttribute(
        'placeholder',
        `Morning Hymns - ${getStation().name} Live`,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Start Recording' }));
    expect(screen.getByTestId('recording-timer')).toHaveTextContent('0:00 / 0:30');
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    fireEvent.click(screen.getByRole('button', { name: /View Recordings \(1\)/ }));
    const item = await screen.findByTestId('recording');
    expect(within(item).getByRole('heading')).toHaveTextContent(`Morning Hymns - ${getStation().name} Live`);
    expect(
      within(item).getByText('A blessed moment from our live Christian radio broadcast'),
    ).toBeInTheDocument();
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    expect(revoked).toEqual(['blob:clip-1']);
    expect(screen.getByText(/No recordings yet/)).toBeInTheDocument();
  });

  it("where the browser cannot record, 'Save this moment' asks the server for the heard seconds", async () => {
    const { startPlaying } = setup(false);
    expect(
      screen.getByText(
        'Audio recording is not supported in this browser. Please try Chrome, Firefox, or Edge.',
      ),
    ).toBeInTheDocument();
    startPlaying();
    fireEvent.click(screen.getByRole('button', { name: /Save this moment/ }));
    fireEvent.change(screen.getByLabelText(/Clip title/), { target: { value: 'Grace' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save this moment' }));
    await screen.findByRole('button', { name: /View Recordings \(1\)/ });
    expect(posted).toEqual([
      {
        seconds: 30,
        title: 'Grace',
        description: 'A blessed moment from our live Christian radio broadcast',
      },
    ]);
  });
});
