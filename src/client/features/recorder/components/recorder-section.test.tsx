import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { getStation } from '../../../lib/station';
import { AudioPlayer, type EngineFactory } from '../../player';
import { StreamRecorder } from '../stream-recorder';
import { RecorderSection } from './recorder-section';

class FakeMediaRecorder {
  static isTypeSupported = (type: string) => type === 'audio/webm';
  state = 'inactive';
  mimeType = 'audio/webm';
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror = null;
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['x'], { type: 'audio/webm' }) });
    this.onstop?.();
  }
}

const posted: unknown[] = [];

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

describe('RecorderSection', () => {
  beforeEach(() => {
    posted.length = 0;
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
  afterEach(() => vi.unstubAllGlobals());

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
