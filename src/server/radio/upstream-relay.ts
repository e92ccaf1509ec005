// Owns: pulling a station elsewhere's stream and decoding it through the live chain, reconnecting on failure.
// Must not: decide when it airs (relay-on-air.ts, the switch) nor check its address (its feature does).
import { setTimeout as sleep } from 'node:timers/promises';
import type { NowPlaying } from '../../common/radio.js';
import { LiveDecoder } from './live-decoder.js';

/**
 * A station elsewhere as the engine relays it, handed in by the feature that owns the setting (the engine
 * reaches no address itself): its stream is asked for the way that feature allows (the Station tab's
 * through its address check, connected to as resolved), and its now playing comes from its status.
 */
export interface UpstreamStation {
  /** Its stream's address, for the log and staff notices. */
  readonly address: string;
  /** One request for its stream (no ICY metadata in the audio); aborting `signal` hangs up. */
  openStream(signal: AbortSignal): Promise<Response>;
  /** What its status says is on air: the title relayed with its audio. */
  nowPlaying(): NowPlaying;
  onChange(listener: (nowPlaying: NowPlaying) => void): () => void;
  /** Starts and stops asking for its status. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface UpstreamRelayOptions {
  /** The levelling and ceiling of the live chain, read at each connection. */
  level: () => { targetLufs: number; limit: number };
  /** Decoded audio kept ready; more waits in the pipes, then in TCP (the upstream then waits for us). */
  aheadSeconds: number;
  /** The first wait before connecting again, doubled at each failure in a row up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** No answer within this long: the request is dropped and made again. */
  connectTimeoutMs?: number;
  /** A connection that sends nothing this long is dropped and made again. */
  stallMs?: number;
  /** A decoder that gives no audio this long for the bytes it was given is restarted. */
  hangMs?: number;
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Once per outage: why the stream cannot be had (the engine tells staff). */
  onFailure?: (reason: string) => void;
}

/** A connection that played this long was healthy: the next failure waits the shortest time again. */
const HEALTHY_SECONDS = 10;

/**
 * Pulls a station elsewhere's stream and decodes it (any format ffmpeg tells from its bytes) through the
 * live chain, kept connected: a connection that fails, ends, stalls or sends what cannot be decoded is made
 * again after a wait that grows while it keeps failing. The engine mixes its audio as it would a live source.
 */
export class UpstreamRelay {
  private decoder: LiveDecoder | null = null;
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private stopped = true;
  private failing = false;
  private readonly scratch = new Float32Array(8192);

  constructor(
    readonly station: UpstreamStation,
    private readonly options: UpstreamRelayOptions,
  ) {}

  /** Sample frames ready to mix. */
  get available(): number {
    return this.decoder?.available ?? 0;
  }

  /** A connection's audio is coming or still to be played out: a gap in it is waited for, not filled at once. */
  get streaming(): boolean {
    return this.decoder !== null && !this.decoder.exhausted;
  }

  /** Adds up to `frames` sample frames into `out` at `at`; returns how many. */
  mixInto(out: Float32Array, at: number, frames: number): number {
    return this.decoder?.mixInto(out, at, frames) ?? 0;
  }

  /** Drops up to `frames` sample frames (while a live source is on air), so the relay stays current. */
  skip(frames: number): void {
    const chunk = this.scratch.length / 2;
    for (let left = frames; left > 0 && this.available > 0; left -= chunk)
      this.mixInto(this.scratch, 0, Math.min(chunk, left));
    this.scratch.fill(0);
  }

  /** Called on every engine tick: a decoder that stopped answering is restarted. */
  check(now: number): void {
    this.decoder?.check(now);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.station.start();
    this.running = this.run();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.controller?.abort();
    this.wake?.();
    await this.running;
    this.decoder?.close();
    this.decoder = null;
    await this.station.stop();
  }

  private async run(): Promise<void> {
    const first = this.options.retryMs ?? 1000;
    let wait = first;
    while (!this.stopped) {
      const seconds = await this.connection();
      if (this.stopped) break;
      if (seconds >= HEALTHY_SECONDS) wait = first;
      await this.pause(wait);
      wait = Math.min(wait * 2, this.options.maxRetryMs ?? 30_000);
    }
  }

  /** A wait that `stop` cuts short. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => (this.wake = null));
  }

  /** One connection, read until it ends or fails. Returns the seconds of audio it gave. */
  private async connection(): Promise<number> {
    const controller = new AbortController();
    this.controller = controller;
    // Why it was dropped, when we dropped it: the error the fetch then throws says only 'aborted'.
    let why: string | null = null;
    const drop = (reason: string) => {
      why ??= reason;
      controller.abort();
    };
    let decoder: LiveDecoder | null = null;
    try {
      const answer = setTimeout(() => drop('no answer in time'), this.options.connectTimeoutMs ?? 10_000);
      const response = await this.station
        .openStream(controller.signal)
        .catch((error: unknown) => {
          throw new Error(`it could not be reached (${describeFailure(error)})`);
        })
        .finally(() => clearTimeout(answer));
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`it answered HTTP ${response.status}`);
      }
      decoder = new LiveDecoder(this.options.level(), {
        aheadSeconds: this.options.aheadSeconds,
        // A station elsewhere's format may come in pages of a second or more: waited for as long whatever is ahead.
        hangMs: this.options.hangMs ?? 5000,
        minHangMs: this.options.hangMs ?? 5000,
        source: `station elsewhere ${this.station.address}`,
        log: (message) => this.options.log?.('warn', message),
      });
      this.decoder?.close();
      this.decoder = decoder;
      const reader = response.body.getReader();
      const stallMs = this.options.stallMs ?? 10_000;
      try {
        for (;;) {
          const stall = setTimeout(
            () => drop(`it sent nothing for ${Math.round(stallMs / 1000)} s`),
            stallMs,
          );
          const read = await reader
            .read()
            .catch((error: unknown) => {
              throw new Error(`its stream broke off (${describeFailure(error)})`);
            })
            .finally(() => clearTimeout(stall));
          if (read.done) throw new Error('it ended its stream');
          decoder.write(Buffer.from(read.value.buffer, read.value.byteOffset, read.value.byteLength), 0);
          // Read no faster than it is played: the decoder's full pipe holds the reading back.
          while (decoder.full && !decoder.ended && !this.stopped) await sleep(20);
          if (decoder.ended) throw new Error('its audio could not be decoded');
          if (this.stopped) break;
          if (this.failing && decoder.receivedSeconds > 0) this.recovered();
        }
      } finally {
        controller.abort();
        await reader.cancel().catch(() => {});
      }
    } catch (error) {
      if (!this.stopped) this.failed(why ?? (error as Error).message);
    } finally {
      // What arrived still plays out, then the AutoDJ covers until the next connection has audio.
      decoder?.end();
    }
    return decoder?.receivedSeconds ?? 0;
  }

  private recovered(): void {
    this.failing = false;
    this.options.log?.('info', `station elsewhere is sending audio again (${this.station.address})`);
  }

  /** Logged and told once per outage, not at every attempt. */
  private failed(reason: string): void {
    if (this.failing) return;
    this.failing = true;
    this.options.log?.(
      'warn',
      `station elsewhere unavailable (${this.station.address}): ${reason}; connecting again`,
    );
    this.options.onFailure?.(reason);
  }
}

/** An error's code (ECONNREFUSED, UND_ERR_SOCKET...) or message, for the log and staff. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : error.message;
}
