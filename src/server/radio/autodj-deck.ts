// Owns: one AutoDJ item on its way to air: prepared (levelled, cue points), its decoder, position, subtitles.
// Must not: choose what plays, mix or fade (the AutoDJ does); it only holds one item's state.
import type { DecodeOptions } from './decoder.js';
import { FileDecoder, type FileDecode } from './file-decoder.js';
import { describeTrack, type LibraryItem, type TrackInfo } from './library.js';
import { SAMPLE_RATE } from './pcm.js';
import type { VttCue } from './vtt.js';

/** A subtitle line as its media file plays, placed on the stream clock. */
export interface Cue {
  language: string;
  text: string;
  streamClockStart: number;
  streamClockEnd: number;
}

/** How the AutoDJ levels and joins items, read before each one (the Station tab's audio settings). */
export interface Mixing {
  loudnessTargetLufs: number;
  crossfadeSeconds: number;
}

/** Levelling never lifts or cuts more than this: an analysis gone wrong must not blast or mute. */
const MAX_GAIN_DB = 20;
/** Decoded ahead of the mix beyond the crossfade, so the end of a file is known before its fade starts. */
const AHEAD_SECONDS = 3;

/**
 * One item on its way to air, with its subtitles and where it stands. Its decoder starts only when it is
 * nearly due (the item before it has finished decoding), so a waiting item holds no process.
 */
export class Deck {
  /** Seconds of the aired part played so far. */
  position = 0;
  decoder: FileDecoder | null = null;
  /** Stream-clock second it began on air; null until then. */
  startedAt: number | null = null;
  /**
   * Wall time (epoch ms) at which it must begin (a programme's hard start, or the end of what plays before
   * it set by the schedule): what plays then fades out over the crossfade. Null: it follows what plays. Kept
   * in wall time and placed on the stream clock as it is mixed: a stream set again after a stall still
   * begins it on time (at once, if its time went by in the stall).
   */
  dueBy: number | null = null;
  /** Wall time (epoch ms) by which the schedule fades it out; null: it plays out. */
  endsBy: number | null = null;
  /** The fallback, chosen because the schedule had nothing to play. */
  fallback = false;
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

  /** Seconds it airs in all, when known (between its cue points). */
  get length(): number | null {
    const end = this.file.to ?? this.item.duration ?? null;
    return end == null ? null : Math.max(0, end - this.file.from);
  }

  open(): FileDecoder {
    return (this.decoder ??= new FileDecoder(this.file, this.decodeOptions));
  }

  /** Moves on by `frames` played from stream-clock second `clock`, emitting its subtitles through `onCue`. */
  advance(frames: number, clock: number, onCue: (cue: Cue) => void): void {
    if (!frames) return;
    const base = clock - this.position;
    this.position += frames / SAMPLE_RATE;
    for (const [language, cue] of this.cuesUntil(this.from + this.position)) {
      onCue({
        language,
        text: cue.text,
        streamClockStart: base + cue.start - this.from,
        streamClockEnd: base + cue.end - this.from,
      });
    }
  }

  /** Cues that start before `until` (seconds into the file) and were not emitted yet. */
  private *cuesUntil(until: number): Generator<[string, VttCue]> {
    for (const [language, cues] of this.info.cues) {
      let i = this.cueIndex.get(language) ?? 0;
      while (i < cues.length && cues[i]!.start < until) yield [language, cues[i++]!];
      this.cueIndex.set(language, i);
    }
  }
}

/**
 * The deck of `item`: its tags and subtitles read, levelled from its measured loudness to the station's target
 * and aired between its cue points, with the crossfade of the settings now. No decoder runs until it is opened.
 */
export async function prepareDeck(
  item: LibraryItem,
  options: { stationName: () => string; mixing: () => Promise<Mixing>; log?: DecodeOptions['log'] },
): Promise<Deck> {
  const [info, mixing] = await Promise.all([describeTrack(item, options.stationName()), options.mixing()]);
  const gain =
    item.loudnessLufs == null ? 0 : clamp(mixing.loudnessTargetLufs - item.loudnessLufs, MAX_GAIN_DB);
  return new Deck(
    item,
    info,
    { path: item.path, from: item.cueIn ?? 0, to: item.cueOut ?? null, gainDb: gain },
    { aheadSeconds: mixing.crossfadeSeconds + AHEAD_SECONDS, log: options.log },
    mixing.crossfadeSeconds,
  );
}

const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
