import { FileDecoder, type DecodeOptions, type FileDecode } from './decoder.js';
import { describeTrack, type LibraryItem, type LibraryProvider, type TrackInfo } from './library.js';
import { SAMPLE_RATE } from './pcm.js';
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

/** How the AutoDJ levels and joins items, read before each one (the Station tab's audio settings). */
export interface Mixing {
  loudnessTargetLufs: number;
  crossfadeSeconds: number;
}

export interface AutoDjOptions {
  providers: LibraryProvider[];
  /** Played when every provider is empty: the shipped test transmission. */
  fallback: LibraryItem;
  order: () => Promise<PlayOrder>;
  mixing: () => Promise<Mixing>;
  stationName: () => string;
  onTrack(track: AutoDjTrack): void;
  onCue(cue: Cue): void;
  onError?(error: unknown, item: LibraryItem): void;
  log?: DecodeOptions['log'];
}

/** Levelling never lifts or cuts more than this: an analysis gone wrong must not blast or mute. */
const MAX_GAIN_DB = 20;
/** Decoded ahead of the mix beyond the crossfade, so the end of a file is known before its fade starts. */
const AHEAD_SECONDS = 3;

/**
 * One item on its way to air, with its subtitles and where it stands. Its decoder starts only when it is
 * nearly due (the item before it has finished decoding), so a waiting item holds no process.
 */
class Deck {
  /** Seconds of the aired part played so far. */
  position = 0;
  decoder: FileDecoder | null = null;
  private cueIndex = new Map<string, number>();

  constructor(
    readonly item: LibraryItem,
    readonly info: TrackInfo,
    private readonly file: FileDecode,
    private readonly decodeOptions: DecodeOptions,
    readonly crossfadeSeconds: number,
  ) {}

  /** Seconds into the file where airing starts. */
  get from(): number {
    return this.file.from;
  }

  open(): FileDecoder {
    return (this.decoder ??= new FileDecoder(this.file, this.decodeOptions));
  }

  /** Cues that start before `until` (seconds into the file) and were not emitted yet. */
  *cuesUntil(until: number): Generator<[string, VttCue]> {
    for (const [language, cues] of this.info.cues) {
      let i = this.cueIndex.get(language) ?? 0;
      while (i < cues.length && cues[i]!.start < until) yield [language, cues[i++]!];
      this.cueIndex.set(language, i);
    }
  }
}

/**
 * Plays the library back to back as decoded audio, levelled to the station's loudness, with silence at either
 * end trimmed and a crossfade between items. The engine pulls it in real time; decoders work ahead.
 */
export class AutoDj {
  private readonly providers: LibraryProvider[];
  private current: Deck | null = null;
  private next: Deck | null = null;
  /** Sample frames of the crossfade under way (current fading out, next in), and how many are done. */
  private fade: { length: number; done: number } | null = null;
  private preparing: Promise<void> | null = null;
  private lastPath: string | null = null;
  private shuffleBag: string[] = [];
  private stopped = false;

  constructor(private readonly options: AutoDjOptions) {
    this.providers = [...options.providers];
  }

  /** Adds a source of playable items (for example the media library). */
  addSource(provider: LibraryProvider): void {
    this.providers.push(provider);
  }

  /** Gets the next item decoding so the station starts with audio, not silence. */
  async prepare(): Promise<void> {
    if (!this.next && !this.preparing) {
      this.preparing = this.prepareNext().finally(() => (this.preparing = null));
    }
    await this.preparing;
  }

  /**
   * Whether the item to play next (the one on air while the next has no decoder yet) has a second of audio
   * decoded, or all of it: the engine waits for it at start, tests before each read. A decoder's first output
   * is a few samples; waiting for those alone opens with silence.
   */
  get ready(): boolean {
    if (!this.current) this.next?.open();
    const decoder = this.next?.decoder ?? this.current?.decoder;
    return !!decoder && (decoder.ended || decoder.available >= SAMPLE_RATE);
  }

  /**
   * Adds `frames` sample frames of the AutoDJ into `out` from `at`, the first of them at stream-clock second
   * `clock`. What no item can fill yet stays silent.
   */
  read(out: Float32Array, at: number, frames: number, clock: number): void {
    let done = 0;
    for (let guard = 0; done < frames && guard < 8; guard++) {
      if (this.next && (!this.current || this.current.decoder!.ended)) this.next.open();
      if (!this.current) {
        const incoming = this.next?.decoder;
        if (!incoming || (incoming.available === 0 && !incoming.exhausted)) break;
        this.current = this.next!;
        this.next = null;
        this.announce(clock + done / SAMPLE_RATE);
      }
      const deck: Deck = this.current;
      this.startFadeIfDue(clock + done / SAMPLE_RATE);
      const want = frames - done;
      let got: number;
      if (this.fade) {
        const { length } = this.fade;
        const start = this.fade.done;
        got = deck.decoder!.mixInto(out, at + done, want, (i) =>
          Math.cos(((start + i) / length) * (Math.PI / 2)),
        );
        this.next!.decoder!.mixInto(out, at + done, got, (i) =>
          Math.sin(((start + i) / length) * (Math.PI / 2)),
        );
        this.fade.done += got;
        this.advance(this.next!, got, clock + done / SAMPLE_RATE);
      } else {
        got = deck.decoder!.mixInto(out, at + done, want);
      }
      this.advance(deck, got, clock + done / SAMPLE_RATE);
      done += got;
      if (deck.decoder!.exhausted) {
        deck.decoder!.close();
        // After a crossfade the incoming item is already playing (and announced); else it starts next round.
        this.current = this.fade ? this.next : null;
        if (this.fade) this.next = null;
        this.fade = null;
      } else if (got < want) break; // decoder behind: silence for the rest, it catches up
    }
    if (!this.next && !this.stopped) void this.prepare();
  }

  /** The item on air's decoder (the engine checks it for hangs). */
  check(now: number): void {
    this.current?.decoder?.check(now);
    if (this.fade) this.next?.decoder?.check(now);
  }

  /** Tells listeners again what plays (after a live source hands back). */
  announce(clock: number): void {
    const deck = this.fade ? this.next : this.current;
    if (!deck) return;
    this.options.onTrack({
      title: deck.info.title,
      artist: deck.info.artist,
      artworkUrl: deck.info.artworkUrl,
      startedAt: clock - deck.position,
    });
  }

  stop(): void {
    this.stopped = true;
    this.current?.decoder?.close();
    this.next?.decoder?.close();
    this.current = this.next = null;
  }

  /** The crossfade starts when the item on air has no more than the fade left and the next one is ready. */
  private startFadeIfDue(clock: number): void {
    const deck = this.current!;
    const length = Math.round(deck.crossfadeSeconds * SAMPLE_RATE);
    if (this.fade || length === 0 || !this.next || !deck.decoder!.ended) return;
    if (deck.decoder!.available > length || !this.next.decoder?.available) return;
    this.fade = { length: Math.max(1, deck.decoder!.available), done: 0 };
    this.announce(clock);
  }

  /** Moves a deck on by `frames` played from stream-clock second `clock`, emitting its subtitles. */
  private advance(deck: Deck, frames: number, clock: number): void {
    if (!frames) return;
    const base = clock - deck.position;
    deck.position += frames / SAMPLE_RATE;
    for (const [language, cue] of deck.cuesUntil(deck.from + deck.position)) {
      this.options.onCue({
        language,
        text: cue.text,
        streamClockStart: base + cue.start - deck.from,
        streamClockEnd: base + cue.end - deck.from,
      });
    }
  }

  private async prepareNext(): Promise<void> {
    const items = await this.library();
    for (let attempt = 0; attempt < Math.min(items.length, 5) + 1 && !this.stopped; attempt++) {
      const item = items.length ? await this.pick(items) : this.options.fallback;
      try {
        const [info, mixing] = await Promise.all([
          describeTrack(item, this.options.stationName()),
          this.options.mixing(),
        ]);
        if (this.stopped) return;
        const gain =
          item.loudnessLufs == null ? 0 : clamp(mixing.loudnessTargetLufs - item.loudnessLufs, MAX_GAIN_DB);
        this.next = new Deck(
          item,
          info,
          { path: item.path, from: item.cueIn ?? 0, to: item.cueOut ?? null, gainDb: gain },
          { aheadSeconds: mixing.crossfadeSeconds + AHEAD_SECONDS, log: this.options.log },
          mixing.crossfadeSeconds,
        );
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

const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
