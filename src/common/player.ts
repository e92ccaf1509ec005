/** SPEC.md sections 4 and 9: the audio player, volume, connection indicator and network quality, named as the spec names them. */

export const QUALITIES = ['excellent', 'good', 'fair', 'poor'] as const;
export type Quality = (typeof QUALITIES)[number];

export interface QualitySetting {
  /** Seconds buffered before playback. */
  buffer: number;
  /** Stream bitrate asked for, kbps. */
  bitrate: number;
  /** First reconnect delay; doubles on each attempt. */
  reconnectDelayMs: number;
  maxRetries: number;
}

/** SPEC.md section 9: per quality setting. */
export const QUALITY_SETTINGS: Record<Quality, QualitySetting> = {
  excellent: { buffer: 2, bitrate: 128, reconnectDelayMs: 500, maxRetries: 5 },
  good: { buffer: 4, bitrate: 96, reconnectDelayMs: 1000, maxRetries: 4 },
  fair: { buffer: 8, bitrate: 80, reconnectDelayMs: 2000, maxRetries: 3 },
  poor: { buffer: 15, bitrate: 64, reconnectDelayMs: 3000, maxRetries: 2 },
};

export const RECONNECT_DELAY_MS: Record<Quality, number> = {
  excellent: QUALITY_SETTINGS.excellent.reconnectDelayMs,
  good: QUALITY_SETTINGS.good.reconnectDelayMs,
  fair: QUALITY_SETTINGS.fair.reconnectDelayMs,
  poor: QUALITY_SETTINGS.poor.reconnectDelayMs,
};

/** SPEC.md section 9: latency bands, checked in order (under `below` ms). */
export const LATENCY_BANDS: readonly { below: number; quality: Quality; score: number }[] = [
  { below: 50, quality: 'excellent', score: 10 },
  { below: 100, quality: 'good', score: 5 },
  { below: 200, quality: 'fair', score: 2 },
  { below: Infinity, quality: 'poor', score: 1 },
];

export interface NetworkQuality {
  /** Bandwidth score from the latency band. */
  bandwidth: number;
  latency: number;
  quality: Quality;
}

/** A failed network check. */
export const FAILED_NETWORK_QUALITY: NetworkQuality = { bandwidth: 1, latency: 500, quality: 'poor' };

/** The band a latency (ms) falls in. */
export function qualityForLatency(latencyMs: number): NetworkQuality {
  const band = LATENCY_BANDS.find((b) => latencyMs < b.below)!;
  return { bandwidth: band.score, latency: latencyMs, quality: band.quality };
}

/** The bitrate is 128 for a score of 5 or more, 96 for 2 or more, else 64. */
export function bitrateForScore(score: number): number {
  if (score >= 5) return 128;
  if (score >= 2) return 96;
  return 64;
}

/** Reconnect: exponential backoff starting at the quality's delay, doubling each attempt, up to its max retries. */
export function reconnectDelays(quality: Quality): number[] {
  const { reconnectDelayMs, maxRetries } = QUALITY_SETTINGS[quality];
  return Array.from({ length: maxRetries }, (_, attempt) => reconnectDelayMs * 2 ** attempt);
}

/** Delay before reconnect attempt `attempt` (0-based), or null once the max retries are used. */
export function reconnectDelay(quality: Quality, attempt: number): number | null {
  const { reconnectDelayMs, maxRetries } = QUALITY_SETTINGS[quality];
  return attempt < maxRetries ? reconnectDelayMs * 2 ** attempt : null;
}

export const MAX_RECONNECT_MESSAGE = 'Max reconnection attempts reached';

/** Preload metadata only when quality is excellent, else none. */
export function preloadFor(quality: Quality): 'metadata' | 'none' {
  return quality === 'excellent' ? 'metadata' : 'none';
}

/** The adaptive stream URL: the stream address plus a quality (bitrate) and a time-stamp query parameter. */
export function adaptiveStreamUrl(streamUrl: string, bitrate: number, now: number = Date.now()): string {
  const [path, hash] = streamUrl.split('#', 2);
  const sep = path!.includes('?') ? '&' : '?';
  return `${path}${sep}quality=${bitrate}&t=${now}${hash === undefined ? '' : `#${hash}`}`;
}

/** Player volume: 0 to 1, initial 0.75; pressing play raises it to at least 0.8. */
export const PLAYER_VOLUME = { min: 0, max: 1, initial: 0.75, playFloor: 0.8 } as const;

export function clampVolume(volume: number): number {
  if (Number.isNaN(volume)) return PLAYER_VOLUME.initial;
  return Math.min(PLAYER_VOLUME.max, Math.max(PLAYER_VOLUME.min, volume));
}

/** The volume after pressing play: at least the floor. */
export function volumeOnPlay(volume: number): number {
  return Math.max(PLAYER_VOLUME.playFloor, clampVolume(volume));
}

/** Banner volume: percent, default 75, 0..100 step 1; un-mute restores the default. */
export const BANNER_VOLUME = { min: 0, max: 100, step: 1, default: 75 } as const;

/** Moving the slider to 0 counts as muted. */
export function isMuted(percent: number): boolean {
  return percent <= 0;
}

/** Mute sets 0; un-mute restores 75. */
export function toggleMute(percent: number): number {
  return isMuted(percent) ? BANNER_VOLUME.default : 0;
}

/** Timings (SPEC.md section 9). */
export const CURRENT_TRACK_REFETCH_MS = 15_000;
export const CURRENT_TRACK_RETRIES = 3;
export const CONNECTION_PROBE_INTERVAL_MS = 30_000;
export const NETWORK_CHECK_INTERVAL_MS = 30_000;
export const NETWORK_CHECK_MIN_SPACING_MS = 15_000;
export const NETWORK_CHECK_AFTER_ONLINE_MS = 1000;
export const LATENCY_AVERAGE_OVER = 5;
export const SPEED_THRESHOLD_MS = 200;
export const STREAM_URL_STALE_MS = 5 * 60_000;
export const STREAM_URL_GC_MS = 10 * 60_000;
export const AUTOPLAY_HINT_MS = 5000;
export const BUFFER_CHECK_INTERVAL_MS = 5000;
export const BUFFER_LOW_AHEAD_S = 1;
export const BUFFER_LOW_SHOW_MS = 2000;
export const SILENT_PRELOAD_MS = 30_000;

export type ConnectionStatus = 'offline' | 'fast' | 'slow';
/** What the probe says of the line while the browser is online. */
export type LineQuality = Exclude<ConnectionStatus, 'offline'>;

/** The indicator's label and colour for a status. */
export const CONNECTION_LABELS: Record<
  ConnectionStatus,
  { label: string; color: 'red' | 'green' | 'yellow' }
> = {
  offline: { label: 'Offline', color: 'red' },
  fast: { label: 'High Speed', color: 'green' },
  slow: { label: 'Slow Connection', color: 'yellow' },
};

/** Online and the probe answers under 200 ms: High Speed; slower or failed: Slow Connection. */
export function connectionStatusFor(probeMs: number | null): LineQuality {
  return probeMs !== null && probeMs < SPEED_THRESHOLD_MS ? 'fast' : 'slow';
}

/** Banner texts (SPEC.md section 4). */
export const PLAYER_TEXT = {
  liveNow: 'Live Now',
  turnOn: 'Turn On',
  turnOff: 'Turn Off',
  buffering: '⏳ Buffering audio stream...',
  streaming: '● Live streaming now',
  autoplayHint: 'Click play to start listening - auto-play blocked by browser',
  iosVolume: 'Use iPhone volume buttons to adjust audio',
  testTransmission: 'Test Transmission',
} as const;

/** Media Session metadata. */
export const MEDIA_SESSION_ALBUM = 'Live Christian Broadcasting';
/** Lock-screen artwork sizes (SPEC.md section 4): the product logo exists as a PNG at each. */
export const ARTWORK_SIZES = [96, 128, 192, 256, 384, 512, 1024] as const;

/** The product logo at one of the artwork sizes (src/client/public/icons, made by scripts/make-icons.mjs). */
export function productLogoUrl(size: (typeof ARTWORK_SIZES)[number]): string {
  return `/icons/icon-${size}.png`;
}

export interface ArtworkImage {
  src: string;
  /** Only where the image's real size is known. */
  sizes?: string;
  type: string;
}

/** SPEC.md section 3: jpeg if the url contains '.jpg', else png. */
export function artworkTypeFor(url: string): string {
  return url.includes('.jpg') ? 'image/jpeg' : 'image/png';
}

/**
 * SPEC.md section 3: the product logo unless artwork_url starts with 'http'. Each size declared is a file
 * of that size (one image declared at sizes it is not gets scaled by the lock screen); a track's own image
 * is of a size nobody told us, so it claims none. `resolve` makes the logo's paths absolute.
 */
export function artworkFor(
  artworkUrl: string | null | undefined,
  resolve: (path: string) => string = (path) => path,
): ArtworkImage[] {
  if (artworkUrl && artworkUrl.startsWith('http'))
    return [{ src: artworkUrl, type: artworkTypeFor(artworkUrl) }];
  return ARTWORK_SIZES.map((size) => {
    const src = resolve(productLogoUrl(size));
    return { src, sizes: `${size}x${size}`, type: artworkTypeFor(src) };
  });
}

/** Subtitles toggle: its flag persists in local storage under this key. */
export const SUBTITLES_ENABLED_KEY = 'subtitles-enabled';
