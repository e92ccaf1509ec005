// Owns: a live stream decoded as it arrives (a presenter's encoder, a station relayed): compressed, levelled.
// Must not: supervise its process (decoder.ts does), nor read a socket or pace its feed (live-on-air, relay).
import { PcmSource, type DecodeOptions } from './decoder.js';
import { LoudnessLeveller } from './leveller.js';
import { PCM_ARGS } from './pcm.js';

/** The demuxers of the streams a live decoder reads: MP3, AAC (ADTS), Ogg, FLAC, WAV, Matroska/WebM. */
const LIVE_DEMUXERS = 'mp3,aac,ogg,flac,wav,matroska';

/** What a live decoder reads: a live encoder's MP3, or a station elsewhere's stream in whatever it sends. */
export interface LiveDecodeOptions extends DecodeOptions {
  /**
   * The input's format when it is known (a live encoder sends MP3); unset, ffmpeg tells it from the first
   * bytes (MP3, AAC, Ogg Vorbis or Opus, FLAC...).
   */
  format?: 'mp3';
  /** What it decodes, for the log ('live' by default). */
  source?: string;
}

/**
 * A live stream decoded as it arrives, through a gentle compressor and limiter, then brought to the station's
 * loudness target as it plays (`LoudnessLeveller`), so a preacher's microphone or a station elsewhere sits at
 * the music's level. Fed by `write`; a restart loses only the bytes in flight.
 */
export class LiveDecoder extends PcmSource {
  private readonly leveller: LoudnessLeveller;

  constructor(
    private readonly level: { targetLufs: number; limit: number },
    protected override readonly options: LiveDecodeOptions,
  ) {
    super(options);
    this.leveller = new LoudnessLeveller(level.targetLufs);
    this.start();
  }

  protected override shape(samples: Float32Array): void {
    this.leveller.process(samples);
  }

  /** The first write not answered by audio yet. */
  private unanswered: number | null = null;

  /** Seconds of audio written to this run of the process. */
  private written = 0;

  /** Encoder bytes in, `seconds` of audio; false while the decoder is full. */
  write(mp3: Buffer, seconds: number): boolean {
    const stdin = this.proc?.stdin;
    if (!stdin || stdin.destroyed) return false;
    if (this.unanswered === null || this.unanswered < this.lastData) this.unanswered = performance.now();
    this.written += seconds;
    return stdin.write(mp3);
  }

  /** Audio written and not decoded yet: the feeder keeps this small, so nothing piles up in the pipe. */
  get inFlightSeconds(): number {
    return this.written - this.receivedSeconds;
  }

  protected override start(): void {
    this.written = this.receivedSeconds; // what a dead run held is lost, not owed
    super.start();
  }

  /** A quiet encoder is not a stuck decoder: audio is owed only for bytes written since its last output. */
  protected override owedSince(): number | null {
    if (this.paused) return null;
    return this.unanswered !== null && this.unanswered > this.lastData ? this.unanswered : null;
  }

  /** Its input pipe is full: the feeder waits (the process catches up, or is restarted) before writing more. */
  get full(): boolean {
    return this.proc?.stdin?.writableNeedDrain ?? false;
  }

  /** The encoder left: what is in flight is decoded, then the source ends. */
  end(): void {
    this.proc?.stdin?.end();
  }

  protected args(): string[] {
    // Speech peaks high and sits low: compress above −30 dBFS, lift towards the target, never pass the limit.
    const makeupDb = Math.min(12, Math.max(0, this.level.targetLufs + 26));
    return [
      ...['-hide_banner', '-v', 'error', '-fflags', 'nobuffer', '-probesize', '32', '-analyzeduration', '0'],
      // Only what arrives on the pipe, read by an audio stream's demuxer: a playlist (HLS, whose demuxer would
      // fetch the addresses it lists itself) or anything else is never opened.
      ...['-protocol_whitelist', 'pipe', '-format_whitelist', LIVE_DEMUXERS],
      ...(this.options.format ? ['-f', this.options.format] : []),
      ...['-i', 'pipe:0', '-vn'],
      ...[
        '-af',
        `acompressor=threshold=0.03:ratio=3:attack=20:release=300:makeup=${(10 ** (makeupDb / 20)).toFixed(2)},alimiter=limit=${this.level.limit.toFixed(3)}:level=0`,
      ],
      ...PCM_ARGS,
      'pipe:1',
    ];
  }

  protected describe(): Record<string, unknown> {
    return { source: this.options.source ?? 'live' };
  }
}
