import { describe, expect, it } from 'vitest';
import {
  adaptiveStreamUrl,
  artworkFor,
  bitrateForScore,
  clampVolume,
  connectionStatusFor,
  isMuted,
  LATENCY_BANDS,
  preloadFor,
  QUALITY_SETTINGS,
  qualityForLatency,
  reconnectDelay,
  reconnectDelays,
  toggleMute,
  volumeOnPlay,
} from './player.js';

describe('SPEC.md section 9 quality table', () => {
  it('matches the spec row by row', () => {
    expect(QUALITY_SETTINGS).toEqual({
      excellent: { buffer: 2, bitrate: 128, reconnectDelayMs: 500, maxRetries: 5 },
      good: { buffer: 4, bitrate: 96, reconnectDelayMs: 1000, maxRetries: 4 },
      fair: { buffer: 8, bitrate: 80, reconnectDelayMs: 2000, maxRetries: 3 },
      poor: { buffer: 15, bitrate: 64, reconnectDelayMs: 3000, maxRetries: 2 },
    });
  });
});

describe('latency bands', () => {
  it.each([
    [0, 'excellent', 10],
    [49.9, 'excellent', 10],
    [50, 'good', 5],
    [99, 'good', 5],
    [100, 'fair', 2],
    [199, 'fair', 2],
    [200, 'poor', 1],
    [5000, 'poor', 1],
  ])('%d ms is %s with score %d', (latency, quality, score) => {
    expect(qualityForLatency(latency)).toEqual({ latency, quality, bandwidth: score });
  });
  it('has four bands in order', () => {
    expect(LATENCY_BANDS.map((b) => b.below)).toEqual([50, 100, 200, Infinity]);
  });
});

describe('bitrate by bandwidth score', () => {
  it.each([
    [10, 128],
    [5, 128],
    [4, 96],
    [2, 96],
    [1, 64],
    [0, 64],
  ])('score %d -> %d kbps', (score, bitrate) => expect(bitrateForScore(score)).toBe(bitrate));
});

describe('reconnect backoff', () => {
  it.each([
    ['excellent', [500, 1000, 2000, 4000, 8000]],
    ['good', [1000, 2000, 4000, 8000]],
    ['fair', [2000, 4000, 8000]],
    ['poor', [3000, 6000]],
  ] as const)('%s doubles from its delay up to its max retries', (quality, delays) => {
    expect(reconnectDelays(quality)).toEqual(delays);
    expect(reconnectDelay(quality, delays.length)).toBeNull();
    expect(reconnectDelay(quality, 0)).toBe(delays[0]);
  });
});

describe('volume rules', () => {
  it('clamps the player volume to 0..1', () => {
    expect(clampVolume(-1)).toBe(0);
    expect(clampVolume(2)).toBe(1);
    expect(clampVolume(0.3)).toBe(0.3);
    expect(clampVolume(Number.NaN)).toBe(0.75);
  });
  it('play raises the volume to at least 0.8', () => {
    expect(volumeOnPlay(0)).toBe(0.8);
    expect(volumeOnPlay(0.75)).toBe(0.8);
    expect(volumeOnPlay(0.9)).toBe(0.9);
  });
  it('mute sets 0, un-mute restores 75, and 0 counts as muted', () => {
    expect(toggleMute(40)).toBe(0);
    expect(toggleMute(0)).toBe(75);
    expect(isMuted(0)).toBe(true);
    expect(isMuted(1)).toBe(false);
  });
});

describe('stream url, preload and indicator', () => {
  it('adds the quality and time-stamp parameters', () => {
    expect(adaptiveStreamUrl('/stream', 96, 123)).toBe('/stream?quality=96&t=123');
    expect(adaptiveStreamUrl('http://h/stream?x=1', 128, 5)).toBe('http://h/stream?x=1&quality=128&t=5');
  });
  it('preloads metadata only on excellent', () => {
    expect(preloadFor('excellent')).toBe('metadata');
    expect(preloadFor('good')).toBe('none');
    expect(preloadFor('poor')).toBe('none');
  });
  it('is High Speed under 200 ms, else Slow Connection (also when the probe fails)', () => {
    expect(connectionStatusFor(199)).toBe('fast');
    expect(connectionStatusFor(200)).toBe('slow');
    expect(connectionStatusFor(null)).toBe('slow');
  });
});

describe('artwork rules', () => {
  it('is the product logo unless the url starts with http: one PNG per real size, 96 to 1024', () => {
    const art = artworkFor('/uploads/a.jpg');
    expect(art).toEqual(
      [96, 128, 192, 256, 384, 512, 1024].map((size) => ({
        src: `/icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
      })),
    );
    expect(artworkFor(null)).toEqual(art);
    // No two entries claim one file.
    expect(new Set(art.map((a) => a.src)).size).toBe(art.length);
    expect(artworkFor(null, (path) => `https://radio.example${path}`)[0]!.src).toBe(
      'https://radio.example/icons/icon-96.png',
    );
  });
  it("a track's own image is declared once, at no size it may not have; jpeg when the url contains .jpg, else png", () => {
    expect(artworkFor('https://cdn/x.jpg?s=1')).toEqual([
      { src: 'https://cdn/x.jpg?s=1', type: 'image/jpeg' },
    ]);
    expect(artworkFor('https://cdn/x.webp')).toEqual([{ src: 'https://cdn/x.webp', type: 'image/png' }]);
  });
});
