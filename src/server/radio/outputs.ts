// Owns: the outputs per bitrate: a mount (Broadcaster) per bitrate, the encoder feeding them, silence frames.
// Must not: decide what airs or when (the switch and the stream clock do), nor count listeners.
import type { AudioSettings } from '../../common/audio-settings.js';
import { STREAM_BITRATES } from '../../common/radio.js';
import { Broadcaster, type BroadcasterOptions, type ListenerEvents } from './broadcaster.js';
import { MultiEncoder, type Encoder, type Taken } from './encoder.js';
import { LibraryEncoder } from './library-encoder.js';
import type { Mp3Frame } from './mp3-frames.js';
import { silentFrame } from './mp3-frames.js';
import { masterLimit } from './on-air.js';
import { FRAME_SECONDS } from './pcm.js';

/**
 * Listeners get the main mount's audio 0.4 s at a time, a lower bitrate the same bytes (up to a second's
 * worth): their players hold seconds, and a write costs the station more than the bytes in it. Every 0.2 s,
 * serving 2,000 listeners cost 1.06 to 1.29 times Icecast's CPU; every 0.4 s, 0.66 to 0.87 (bench/listeners).
 */
const LISTENER_WRITE_SECONDS = 0.4;

export type { Taken } from './encoder.js';

/**
 * Every bitrate's mount (those turned off get no audio and no listeners), and the one encoder run that makes
 * frame n of every bitrate from the same mixed audio. The main mount (/stream) is the highest bitrate on.
 */
export class Outputs {
  private readonly mounts = new Map<number, Broadcaster>();
  private encoder: Encoder | null = null;
  private readonly silence = new Map(STREAM_BITRATES.map((kbps) => [kbps, silentFrame(kbps)]));
  /** The main mount (/stream): the highest bitrate on. */
  main: Broadcaster;

  constructor(
    private readonly options: {
      broadcaster?: BroadcasterOptions;
      /** Listeners joining and leaving any mount. */
      events: ListenerEvents;
      /** The settings as last read: the bitrates on, the true-peak target. */
      settings: () => AudioSettings;
      log?: (message: string) => void;
    },
  ) {
    // The same bytes at every bitrate, so a lower one is written to less often.
    const minWriteBytes = ((STREAM_BITRATES[0] * 1000) / 8) * LISTENER_WRITE_SECONDS * 0.9;
    for (const kbps of STREAM_BITRATES) {
      const clips = kbps === STREAM_BITRATES[0];
      this.mounts.set(
        kbps,
        new Broadcaster({ minWriteBytes, ...options.broadcaster, clips }, options.events),
      );
    }
    this.main = this.mounts.get(STREAM_BITRATES[0])!;
  }

  /** The bitrates on air now (kbps), the main one first. */
  bitrates(): readonly number[] {
    return this.encoder?.bitrates ?? this.options.settings().bitrates;
  }

  /** The mount of one bitrate, or null when that bitrate is off. */
  mount(kbps: number): Broadcaster | null {
    return this.bitrates().includes(kbps) ? (this.mounts.get(kbps) ?? null) : null;
  }

  /** Every mount, on or off. */
  all(): IterableIterator<Broadcaster> {
    return this.mounts.values();
  }

  /** The ICY title on every mount, from stream-clock second `from` (default: each mount's own clock). */
  setTitle(title: string, from?: number): void {
    for (const mount of this.mounts.values()) {
      if (from === undefined) mount.setTitle(title);
      else mount.setTitle(title, from);
    }
  }

  /** Whether an encoder runs (started, not stopped). */
  get encoding(): boolean {
    return this.encoder !== null;
  }

  /**
   * A new encoder run for the bitrates and ceiling of the settings, from stream slot `slot`; mounts turned off
   * close. The audio mixed ahead for the encoder before goes to the new one: only the restart's moment is lost.
   */
  startEncoder(slot: number): void {
    const before = this.encoder;
    const written = before?.close();
    const settings = this.options.settings();
    const { bitrates } = settings;
    const options = {
      bitrates,
      limit: masterLimit(settings),
      log: (message: string) => this.options.log?.(message),
    };
    // The LAME library in this process where it loads (decision 042), else LAME or ffmpeg processes.
    this.encoder = LibraryEncoder.open(options) ?? new MultiEncoder(options);
    // What the one before was given is in its own format: handed over only to the same kind.
    this.encoder.start(slot, before?.constructor === this.encoder.constructor ? written : []);
    for (const [kbps, mount] of this.mounts) if (!(bitrates as number[]).includes(kbps)) mount.closeAll();
    this.main = this.mounts.get(bitrates[0]!)!;
  }

  /** The encoder run, while there is one (supervised every tick). */
  get encoderRun(): Encoder | null {
    return this.encoder;
  }

  /** Mixed audio for the encoder, whole frames from stream slot `slot`; then to whoever listens to the mix. */
  write(slot: number, pcm: Float32Array): void {
    this.encoder?.write(slot, pcm);
    for (const listener of this.pcmListeners) listener(pcm, slot * FRAME_SECONDS);
  }

  private readonly pcmListeners = new Set<(pcm: Float32Array, clock: number) => void>();

  /** The mix as the encoder got it (after the master limiter), and the stream-clock second of its first sample. */
  onPcm(listener: (pcm: Float32Array, clock: number) => void): () => void {
    this.pcmListeners.add(listener);
    return () => this.pcmListeners.delete(listener);
  }

  /** The encoded frames of `slot` (see Encoder.take); 'lost' while no encoder runs. */
  take(slot: number): Taken {
    return this.encoder?.take(slot) ?? { state: 'lost' as const };
  }

  /** One slot on every mount on: its frame of that bitrate, or silence when there is none. */
  broadcast(taken: Taken): void {
    for (const kbps of this.bitrates()) {
      const frame: Mp3Frame | undefined =
        taken.state === 'ready' ? taken.frames[this.encoder!.bitrates.indexOf(kbps)] : undefined;
      this.mounts.get(kbps)!.push(frame ?? this.silence.get(kbps as 128)!);
    }
  }

  /** Listeners of every mount on get what was broadcast (in pieces of LISTENER_WRITE_SECONDS). */
  flush(): void {
    for (const kbps of this.bitrates()) this.mounts.get(kbps)!.flush();
  }

  /** Every listener of every mount disconnected. */
  closeMounts(): void {
    for (const mount of this.mounts.values()) mount.closeAll();
  }

  stopEncoder(): void {
    this.encoder?.close();
    this.encoder = null;
  }
}
