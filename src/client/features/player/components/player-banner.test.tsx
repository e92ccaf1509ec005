import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUBTITLES_ENABLED_KEY } from '../../../../common/player';
import { createQueryClient } from '../../../lib/query-client';
import { getStation } from '../../../lib/station';
import { shownByOnlineMark, startOnlineMark } from '../../../test/online-mark';
import { AudioPlayer } from '../audio-player';
import type { EngineCallbacks, EngineFactory } from '../stream-engine';
import { PlayerBanner } from './player-banner';
// Loaded up front: the banner imports the socket client lazily once playback starts.
import '../../../lib/ws-client';

const nowPlaying = {
  current_track: { title: 'Morning Hymns', artist: 'Grace Choir', artwork_url: null, started_at: 0 },
  is_live: false,
  listeners: 3,
  stream_clock: 100,
};

class QuietSocket {
  readyState = 0;
  onopen = null;
  onclose = null;
  onerror = null;
  onmessage = null;
  send() {}
  close() {}
}

let probeOk = true;
let probeDelay = 0;

function stubNetwork() {
  vi.stubGlobal('WebSocket', QuietSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'HEAD') {
        if (probeDelay) await new Promise((r) => setTimeout(r, probeDelay));
        if (!probeOk) throw new TypeError('Failed to fetch');
        return new Response(null, { status: 200 });
      }
      if (url === '/api/radio/current') return Response.json(nowPlaying);
      if (url === '/api/radio/stream-url') return Response.json({ streamUrl: 'http://localhost/stream' });
      return new Response('nope', { status: 404 });
    }),
  );
}

function makePlayer() {
  let callbacks!: EngineCallbacks;
  let warmUps = 0;
  const engine: EngineFactory = (audio, cb) => {
    callbacks = cb;
    return { audio, play: async () => {}, stop: async () => {} };
  };
  const audio = document.createElement('audio');
  const player = new AudioPlayer({
    engine,
    audio,
    method: 'mediasource',
    warmUp: async () => void warmUps++,
  });
  return { player, audio, callbacks: () => callbacks, warmUps: () => warmUps };
}

function renderBanner(player: AudioPlayer) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <PlayerBanner player={player} />
    </QueryClientProvider>,
  );
}

describe('PlayerBanner', () => {
  beforeEach(() => {
    probeOk = true;
    probeDelay = 0;
    localStorage.clear();
    stubNetwork();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('stopped: Live Now, the title, a green Turn On button, 75% and Test Transmission', async () => {
    const { player } = makePlayer();
    renderBanner(player);
    expect(screen.getByText('Live Now')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: `${getStation().name} Live` })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Turn On' });
    expect(button).toHaveAttribute('title', 'Turn On');
    expect(button.className).toContain('bg-emerald-500');
    expect(screen.getByTestId('volume-label')).toHaveTextContent('75%');
    expect(screen.getByText('Test Transmission')).toBeInTheDocument();
    expect(await screen.findByText(/Morning Hymns/)).toBeInTheDocument();
  });

  it('shows the autoplay hint once the stream url is known and hides it after 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { player } = makePlayer();
      renderBanner(player);
      expect(
        await screen.findByText('Click play to start listening - auto-play blocked by browser'),
      ).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(5000));
      expect(screen.queryByText('Click play to start listening - auto-play blocked by browser')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('playing: a red Turn Off button and the live line; buffering shows its line', async () => {
    const { player, audio } = makePlayer();
    renderBanner(player);
    await screen.findByText(/Morning Hymns/);
    fireEvent.click(screen.getByRole('button', { name: 'Turn On' }));
    act(() => void audio.dispatchEvent(new Event('playing')));
    const button = screen.getByRole('button', { name: 'Turn Off' });
    expect(button).toHaveAttribute('title', 'Turn Off');
    expect(button.className).toContain('bg-red-600');
    expect(screen.getByText('● Live streaming now')).toBeInTheDocument();
    expect(screen.getByTestId('volume-label')).toHaveTextContent('80%');
    act(() => void audio.dispatchEvent(new Event('waiting')));
    expect(screen.getByText('⏳ Buffering audio stream...')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Turn Off' }));
    expect(screen.getByRole('button', { name: 'Turn On' })).toBeInTheDocument();
  });

  it('shows the title the listener hears while playing', async () => {
    const { player, audio, callbacks } = makePlayer();
    renderBanner(player);
    await screen.findByText(/Morning Hymns/);
    fireEvent.click(screen.getByRole('button', { name: 'Turn On' }));
    act(() => {
      audio.dispatchEvent(new Event('playing'));
      callbacks().onMetadata({ StreamTitle: 'Brass Band - Evening Psalm', StreamClock: '10' }, 0);
    });
    expect(screen.getByTestId('now-playing')).toHaveTextContent('Evening Psalm — Brass Band');
  });

  it('preloads the stream silently when play comes near, not on page load', async () => {
    const { player, warmUps } = makePlayer();
    renderBanner(player);
    await screen.findByText('Click play to start listening - auto-play blocked by browser');
    expect(warmUps()).toBe(0);
    fireEvent.pointerEnter(screen.getByRole('button', { name: 'Turn On' }));
    expect(warmUps()).toBe(1);
    expect(player.preloading).toBe(true);
  });

  it('mute sets 0%, un-mute restores 75%', async () => {
    const { player, audio } = makePlayer();
    renderBanner(player);
    fireEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(screen.getByTestId('volume-label')).toHaveTextContent('0%');
    expect(audio.volume).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(screen.getByTestId('volume-label')).toHaveTextContent('75%');
    expect(audio.volume).toBe(0.75);
    fireEvent.change(screen.getByRole('slider', { name: 'Volume' }), { target: { value: '0' } });
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
    fireEvent.change(screen.getByRole('slider', { name: 'Volume' }), { target: { value: '42' } });
    expect(screen.getByTestId('volume-label')).toHaveTextContent('42%');
    expect(audio.volume).toBe(0.42);
  });

  it('the connection indicator: High Speed when the probe is quick, Offline while offline', async () => {
    const stopMark = startOnlineMark();
    const { player } = makePlayer();
    renderBanner(player);
    const status = screen.getByRole('status');
    await waitFor(() => expect(shownByOnlineMark(status)).toEqual(['High Speed']));
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(shownByOnlineMark(status)).toEqual(['Offline']);
    vi.stubGlobal('navigator', { ...navigator, onLine: true });
    act(() => void window.dispatchEvent(new Event('online')));
    expect(shownByOnlineMark(status)).toEqual(['High Speed']);
    stopMark();
  });

  it('the connection indicator: Slow Connection when the probe fails', async () => {
    probeOk = false;
    const { player } = makePlayer();
    renderBanner(player);
    await waitFor(() =>
      expect(screen.getByRole('status').querySelector('[data-shown-when="online"]')).toHaveTextContent(
        'Slow Connection',
      ),
    );
  });

  it('the subtitles toggle persists its flag', async () => {
    const { player } = makePlayer();
    renderBanner(player);
    fireEvent.click(screen.getByRole('switch', { name: 'Subtitles' }));
    expect(localStorage.getItem(SUBTITLES_ENABLED_KEY)).toBe('true');
    expect(screen.getByRole('switch', { name: 'Subtitles' })).toHaveAttribute('data-state', 'checked');
  });

  it('on iOS the slider is replaced by the volume-buttons text', () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)',
      onLine: true,
      maxTouchPoints: 5,
    });
    const { player } = makePlayer();
    renderBanner(player);
    expect(screen.getByText('Use iPhone volume buttons to adjust audio')).toBeInTheDocument();
    expect(screen.queryByRole('slider')).toBeNull();
  });
});
