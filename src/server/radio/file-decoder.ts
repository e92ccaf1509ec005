// Owns: a library file decoded for the AutoDJ (mpg123 for an MP3, else ffmpeg), between cue points, levelled.
// Must not: supervise its process (decoder.ts does), nor choose, prepare or mix the item (autodj*.ts).
import { PcmSource, type DecodeOptions } from './decoder.js';
import { mp3Decoding, mpg123Args, type Mp3Decoding } from './mpg123.js';
import { PCM_ARGS, SAMPLE_RATE } from './pcm.js';

export interface FileDecode {
  path: string;
  /** Seconds into the file where airing starts and ends (silence trimmed); null end: the file's end. */
  from: number;
  to: number | null;
  /** Levelling to the station's target, in dB. */
  gainDb: number;
}

/**
 * A library file (any format ffmpeg reads) decoded to the internal format, trimmed and levelled: by mpg123 when
 * it is an MP3 and the system has mpg123 (docs/decisions/027), else by ffmpeg.
 */
export class FileDecoder extends PcmSource {
  /** The mpg123 that decodes it and the file's first frame, when it is an MP3 and the system has mpg123. */
  private readonly mpg123: Mp3Decoding | null;

  constructor(
    readonly file: FileDecode,
    options: DecodeOptions,
  ) {
    super(options);
    this.mpg123 = /\.mp3$/i.test(file.path) ? mp3Decoding(file.path) : null;
    this.start();
  }

  /** Where airing resumes after `received` sample frames, and for how long. */
  private span(received: number) {
    const from = this.file.from + received / SAMPLE_RATE;
    return { from, length: this.file.to === null ? null : this.file.to - from };
  }

  protected override command(received: number): { path: string; args: string[] } {
    if (!this.mpg123) return super.command(received);
    const span = { ...this.span(received), gainDb: this.file.gainDb };
    return { path: this.mpg123.path, args: mpg123Args(this.file.path, this.mpg123.header, span) };
  }

  protected args(received: number): string[] {
    const { from, length } = this.span(received);
    return [
      ...['-hide_banner', '-nostdin', '-v', 'error'],
      ...(from > 0 ? ['-ss', from.toFixed(3)] : []),
      ...['-i', this.file.path, '-vn', '-sn', '-dn'],
      ...(length !== null ? ['-t', Math.max(0, length).toFixed(3)] : []),
      ...['-af', `volume=${this.file.gainDb.toFixed(2)}dB`],
      ...PCM_ARGS,
      'pipe:1',
    ];
  }

  protected describe(): Record<string, unknown> {
    return { path: this.file.path };
  }
}
