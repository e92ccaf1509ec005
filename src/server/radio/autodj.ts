import { closeSync, openSync, readSync } from 'node:fs';
import { describeTrack, type LibraryItem, type LibraryProvider, type TrackInfo } from './library.js';
import { FrameParser, silentFrame, type Mp3Frame } from './mp3-frames.js';
import type { VttCue } from './vtt.js';

export type PlayOrder = 'in_order' | 'shuffle';

/** A subtitle line as its media file plays, placed on the stream clock. */
export interface Cue {
  language: string;
  text: string;
  streamClockStart: number;
  streamClockEnd: number;
}

export interface AutoDjTrack {
  title: string;
  artist: string;
  artworkUrl: string | null;
  /** Stream-clock second at which the track's first second plays (or would have, when resumed). */
  startedAt: number;
}

export interface AutoDjOptions {
  providers: LibraryProvider[];
  /** Played when every provider is empty: the shipped test transmission. */
  fallback: LibraryItem;
  order: () => Promise<PlayOrder>;
  stationName: () => string;
  onTrack(track: AutoDjTrack): void;
  onCue(cue: Cue): void;
  onError?(error: unknown, item: LibraryItem): void;
}

const CHUNK = 64 * 1024;

/** Reads one MP3 file frame by frame, a chunk at a time, so a long sermon never sits whole in memory. */
class TrackReader {
  private fd: number | null;
  private readonly parser = new FrameParser();
  private queue: Mp3Frame[] = [];
  private readonly chunk = Buffer.alloc(CHUNK);
  /** Seconds of this file already played. */
  position = 0;
  private cueIndex = new Map<string, number>();

  constructor(
    readonly item: LibraryItem,
    readonly info: TrackInfo,
  ) {
    this.fd = openSync(item.path, 'r');
  }

  read(): Mp3Frame | null {
    while (this.queue.length === 0 && this.fd !== null) {
      let n = 0;
      try {
        n = readSync(this.fd, this.chunk, 0, CHUNK, null);
      } catch {
        n = 0; // a file removed or unreadable mid-play simply ends
      }
      if (n === 0) {
        this.queue.push(...this.parser.end());
        this.close();
      } else {
        this.queue.push(...this.parser.push(Buffer.from(this.chunk.subarray(0, n))));
      }
    }
    return this.queue.shift() ?? null;
  }

  /** Cues that start before `until` (seconds into the file) and were not emitted yet. */
  *cuesUntil(until: number): Generator<[string, VttCue]> {
    for (const [language, cues] of this.info.cues) {
      let i = this.cueIndex.get(language) ?? 0;
      while (i < cues.length && cues[i]!.start < until) yield [language, cues[i++]!];
      this.cueIndex.set(language, i);
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Plays the library back to back, paced by whoever pulls its frames (the engine's real-time tick). */
export class AutoDj {
  private readonly providers: LibraryProvider[];
  private current: TrackReader | null = null;
  private next: TrackReader | null = null;
  private preparing: Promise<void> | null = null;
  private lastPath: string | null = null;
  private shuffleBag: string[] = [];
  private readonly silence = silentFrame();
  private stopped = false;

  constructor(private readonly options: AutoDjOptions) {
    this.providers = [...options.providers];
  }

  /** Adds a source of playable items (for example uploaded sermon audio). */
  addSource(provider: LibraryProvider): void {
    this.providers.push(provider);
  }

  /** Gets the first track ready so the station starts with audio, not silence. */
  async prepare(): Promise<void> {
    if (!this.next && !this.preparing) {
      this.preparing = this.prepareNext().finally(() => (this.preparing = null));
    }
    await this.preparing;
  }

  /** The next frame to broadcast, starting at stream-clock second `clock`. Never empty: silence while a file opens. */
  nextFrame(clock: number): Mp3Frame {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!this.current) {
        if (!this.next) break;
        this.current = this.next;
        this.next = null;
        this.announce(clock);
      }
      const frame = this.current.read();
      if (frame) {
        const base = clock - this.current.position;
        this.current.position += frame.duration;
        for (const [language, cue] of this.current.cuesUntil(this.current.position)) {
          this.options.onCue({
            language,
            text: cue.text,
            streamClockStart: base + cue.start,
            streamClockEnd: base + cue.end,
          });
        }
        if (!this.next) void this.prepare();
        return frame;
      }
      this.current.close();
      this.current = null;
    }
    if (!this.next) void this.prepare();
    return this.silence;
  }

  /** Tells listeners again what plays (after a live source hands back). */
  announce(clock: number): void {
    if (!this.current) return;
    const { info, position } = this.current;
    this.options.onTrack({
      title: info.title,
      artist: info.artist,
      artworkUrl: info.artworkUrl,
      startedAt: clock - position,
    });
  }

  stop(): void {
    this.stopped = true;
    this.current?.close();
    this.next?.close();
    this.current = this.next = null;
  }

  private async prepareNext(): Promise<void> {
    const items = await this.library();
    for (let attempt = 0; attempt < Math.min(items.length, 5) + 1 && !this.stopped; attempt++) {
      const item = items.length ? await this.pick(items) : this.options.fallback;
      try {
        const info = await describeTrack(item, this.options.stationName());
        if (this.stopped) return;
        this.next = new TrackReader(item, info);
        this.lastPath = item.path;
        return;
      } catch (error) {
        this.options.onError?.(error, item);
        if (!items.length) return;
      }
    }
  }

  private async library(): Promise<LibraryItem[]> {
    const lists = await Promise.all(
      this.providers.map((provider) => provider().catch(() => [] as LibraryItem[])),
    );
    return lists.flat();
  }

  private async pick(items: LibraryItem[]): Promise<LibraryItem> {
    const byPath = new Map(items.map((item) => [item.path, item]));
    if ((await this.options.order()) === 'shuffle') {
      this.shuffleBag = this.shuffleBag.filter((path) => byPath.has(path) && path !== this.lastPath);
      if (this.shuffleBag.length === 0)
        this.shuffleBag = items
          .map((item) => item.path)
          .filter((p) => p !== this.lastPath || items.length === 1);
      const [path] = this.shuffleBag.splice(Math.floor(Math.random() * this.shuffleBag.length), 1);
      return byPath.get(path!)!;
    }
    const at = items.findIndex((item) => item.path === this.lastPath);
    return items[(at + 1) % items.length]!;
  }
}
