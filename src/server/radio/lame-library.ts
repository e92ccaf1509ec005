// Owns: the LAME library (libmp3lame) called in the station's own process through koffi (decision 042).
// Must not: hold audio or frames (library-encoder.ts does), or be reached when the library is missing.
import { createRequire } from 'node:module';
import type Koffi from 'koffi';

/** One LAME encoder in the library: 16-bit interleaved stereo in, MP3 bytes out. */
export interface LameHandle {
  /** Encodes `frames` sample frames of `pcm`; returns the MP3 bytes made (none while LAME fills its look-ahead). */
  encode(pcm: Int16Array, frames: number): Buffer;
  close(): void;
}

export interface LameSettings {
  kbps: number;
  sampleRate: number;
  quality: number;
}

/** MPEG_mode's JOINT_STEREO in lame.h (`-m j`). */
const JOINT_STEREO = 1;

/** LAME's own bound on what one call may write: 1.25 × samples + 7200 bytes (lame.h). */
const outputBound = (frames: number) => Math.ceil(1.25 * frames) + 7200;

type Lame = ReturnType<typeof bind>;

function bind() {
  const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
  const lib = koffi.load(process.env.LAME_LIBRARY || 'libmp3lame.so.0');
  const setter = (name: string) => lib.func(`int ${name}(void *, int)`);
  return {
    init: lib.func('void *lame_init(void)'),
    inSampleRate: setter('lame_set_in_samplerate'),
    outSampleRate: setter('lame_set_out_samplerate'),
    channels: setter('lame_set_num_channels'),
    bitrate: setter('lame_set_brate'),
    quality: setter('lame_set_quality'),
    mode: setter('lame_set_mode'),
    vbrTag: setter('lame_set_bWriteVbrTag'),
    analysis: setter('lame_set_findReplayGain'),
    initParams: lib.func('int lame_init_params(void *)'),
    encode: lib.func('int lame_encode_buffer_interleaved(void *, int16_t *, int, _Out_ uint8_t *, int)'),
    close: lib.func('int lame_close(void *)'),
  };
}

let loaded: Lame | null | undefined;

/**
 * The library, loaded once; null where it cannot be (no libmp3lame, no koffi build for this platform), or while
 * `LAME_LIBRARY` is set empty (read at each call: the encoder then runs LAME or ffmpeg as processes).
 */
export function lameLibrary(): Lame | null {
  if (process.env.LAME_LIBRARY === '') return null;
  if (loaded === undefined) {
    try {
      loaded = bind();
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** A CBR encoder at `kbps`, joint stereo, no Xing frame and no ReplayGain analysis, as `lame` is run otherwise. */
export function openLame(lame: Lame, settings: LameSettings): LameHandle {
  const gf: unknown = lame.init();
  if (!gf) throw new Error('lame_init failed');
  lame.inSampleRate(gf, settings.sampleRate);
  lame.outSampleRate(gf, settings.sampleRate);
  lame.channels(gf, 2);
  lame.bitrate(gf, settings.kbps);
  lame.quality(gf, settings.quality);
  lame.mode(gf, JOINT_STEREO);
  lame.vbrTag(gf, 0);
  lame.analysis(gf, 0);
  if (lame.initParams(gf) < 0) {
    lame.close(gf);
    throw new Error(`LAME refused ${settings.kbps} kbps at ${settings.sampleRate} Hz`);
  }
  let out = Buffer.allocUnsafe(outputBound(4410));
  let open = true;
  return {
    encode(pcm, frames) {
      if (out.length < outputBound(frames)) out = Buffer.allocUnsafe(outputBound(frames));
      const made = lame.encode(gf, pcm, frames, out, out.length) as number;
      if (made < 0) throw new Error(`LAME could not encode (${made})`);
      // Copied out: the output buffer is used again by the next call, the frames are kept until broadcast.
      return Buffer.from(out.subarray(0, made));
    },
    close() {
      if (open) lame.close(gf);
      open = false;
    },
  };
}
