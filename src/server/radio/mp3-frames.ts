// Owns: MP3 frame parsing: a byte stream cut into whole frames with their durations, and a silent frame.
// Must not: decode, encode or pace; it only reads and cuts frames.
/**
 * A small MPEG audio Layer III frame parser: enough to cut a byte stream into whole frames and know
 * each frame's duration, so the AutoDJ can pace files in real time and a live source can be switched in
 * at a frame boundary without a transcoder (docs/decisions/007-mp3-frame-pacing.md).
 */

export interface FrameHeader {
  /** 1, 2 or 2.5 */
  version: 1 | 2 | 2.5;
  bitrateKbps: number;
  sampleRate: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** Whole frame length in bytes, header included. */
  length: number;
  /** Seconds of audio in this frame. */
  duration: number;
}

export interface Mp3Frame {
  data: Buffer;
  duration: number;
  header: FrameHeader;
}

const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<string, number[]> = {
  '1': [44100, 48000, 32000],
  '2': [22050, 24000, 16000],
  '2.5': [11025, 12000, 8000],
};

/** Reads a Layer III frame header at `offset`, or null when the four bytes are not one. */
export function parseFrameHeader(buf: Buffer, offset = 0): FrameHeader | null {
  if (offset + 4 > buf.length) return null;
  const b1 = buf[offset + 1]!;
  const b2 = buf[offset + 2]!;
  const b3 = buf[offset + 3]!;
  if (buf[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  if (versionBits === 1 || layerBits !== 1) return null; // reserved version; Layer III only
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null; // free format / bad
  const bitrateKbps = (version === 1 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]!;
  const sampleRate = SAMPLE_RATES[String(version)]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const channels = b3 >> 6 === 3 ? 1 : 2;
  const samplesPerFrame = version === 1 ? 1152 : 576;
  const length = Math.floor(((samplesPerFrame / 8) * bitrateKbps * 1000) / sampleRate) + padding;
  return {
    version,
    bitrateKbps,
    sampleRate,
    channels,
    samplesPerFrame,
    length,
    duration: samplesPerFrame / sampleRate,
  };
}

/** Size of an ID3v2 tag starting at `offset` (header, body and footer), 0 when there is none. */
export function id3v2Size(buf: Buffer, offset = 0): number {
  if (offset + 10 > buf.length || buf.toString('latin1', offset, offset + 3) !== 'ID3') return 0;
  const size =
    ((buf[offset + 6]! & 0x7f) << 21) |
    ((buf[offset + 7]! & 0x7f) << 14) |
    ((buf[offset + 8]! & 0x7f) << 7) |
    (buf[offset + 9]! & 0x7f);
  const footer = buf[offset + 5]! & 0x10 ? 10 : 0;
  return 10 + size + footer;
}

/** Where a Xing/Info tag starts in a frame: after the header and the side information. */
function xingOffset(header: FrameHeader): number {
  const sideInfo = header.version === 1 ? (header.channels === 1 ? 17 : 32) : header.channels === 1 ? 9 : 17;
  return 4 + sideInfo;
}

/** A VBRI tag sits at a fixed place (after 32 bytes of side information), its frame count 14 bytes in. */
const VBRI_OFFSET = 36;

const hasXing = (frame: Buffer, at: number) => {
  const tag = frame.toString('latin1', at, at + 4);
  return tag === 'Xing' || tag === 'Info';
};
const hasVbri = (frame: Buffer) => frame.toString('latin1', VBRI_OFFSET, VBRI_OFFSET + 4) === 'VBRI';

/** A Xing/Info/VBRI frame describes the file, not audio; mid-stream it would mislead decoders. */
export function isInfoFrame(frame: Buffer, header: FrameHeader): boolean {
  return hasXing(frame, xingOffset(header)) || hasVbri(frame);
}

/** The frame count a Xing/Info or VBRI frame gives for the whole file, or null when it gives none. */
export function infoFrameCount(frame: Buffer, header: FrameHeader): number | null {
  const xing = xingOffset(header);
  // Xing/Info: flags, then the frame count when flag 1 is set.
  if (hasXing(frame, xing) && frame.length >= xing + 12 && frame.readUInt32BE(xing + 4) & 1)
    return frame.readUInt32BE(xing + 8) || null;
  if (hasVbri(frame) && frame.length >= VBRI_OFFSET + 18) return frame.readUInt32BE(VBRI_OFFSET + 14) || null;
  return null;
}

const startsTag = (buf: Buffer, at: number) => {
  const magic = buf.toString('latin1', at, at + 3);
  return magic === 'ID3' || magic === 'TAG' || magic === 'APE';
};

const EMPTY = Buffer.alloc(0);

/**
 * Cuts a byte stream (file chunks or a live encoder's body) into whole frames. Junk, ID3v2 tags and
 * Xing/Info frames are skipped; a frame is trusted only when the next frame's header (or a tag) follows it,
 * so the newest frame waits for the bytes after it (or for `end`). Frames are views of the bytes fed, not
 * copies: whoever keeps them for long copies them (the broadcast's history does).
 */
export class FrameParser {
  private pending: Buffer = EMPTY;
  private skip = 0;
  private seenAudio = false;

  /**
   * `trusted`: the bytes are our own encoder's, whose framing needs no second opinion: a frame is taken as
   * soon as it is whole, not once the next frame's header confirms it.
   */
  constructor(private readonly options: { trusted?: boolean } = {}) {}

  /** Feeds bytes; returns every frame they complete. */
  push(chunk: Buffer): Mp3Frame[] {
    if (this.skip > 0) {
      const dropped = Math.min(this.skip, chunk.length);
      this.skip -= dropped;
      chunk = chunk.subarray(dropped);
    }
    const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Mp3Frame[] = [];
    let pos = 0;
    while (pos + 4 <= buf.length) {
      const tag = buf[pos] === 0x49 ? id3v2Size(buf, pos) : 0; // 'I'
      if (tag > 0) {
        if (pos + tag > buf.length) {
          this.skip = pos + tag - buf.length;
          pos = buf.length;
          break;
        }
        pos += tag;
        continue;
      }
      if (buf[pos] === 0x49 && pos + 10 > buf.length) break; // maybe an ID3 header, wait for more
      const header = parseFrameHeader(buf, pos);
      if (!header) {
        pos++;
        continue;
      }
      const next = pos + header.length;
      if (this.options.trusted) {
        if (next > buf.length) break;
      } else {
        // A frame counts only when the next one (or a tag) follows it: junk can look like a header.
        if (next + 4 > buf.length) break;
        if (!parseFrameHeader(buf, next) && !startsTag(buf, next)) {
          pos++;
          continue;
        }
      }
      const data = buf.subarray(pos, pos + header.length);
      pos += header.length;
      if (!this.seenAudio && isInfoFrame(data, header)) continue;
      this.seenAudio = true;
      frames.push({ data, duration: header.duration, header });
    }
    // What is left is copied: it may be a few bytes of a 64 KB read.
    this.pending = pos < buf.length ? Buffer.from(buf.subarray(pos)) : EMPTY;
    return frames;
  }

  /** At the end of the input: a last frame whose successor could not be checked. */
  end(): Mp3Frame[] {
    const buf = this.pending;
    this.pending = EMPTY;
    const header = parseFrameHeader(buf, 0);
    if (!header || header.length > buf.length) return [];
    const data = buf.subarray(0, header.length);
    if (!this.seenAudio && isInfoFrame(data, header)) return [];
    return [{ data, duration: header.duration, header }];
  }
}

/**
 * One silent MPEG-1 Layer III frame (44.1 kHz, stereo) at a bitrate of the table: zeroed side information
 * decodes to silence. Keeps the stream clock and listeners going when the encoder has nothing in time.
 */
export function silentFrame(kbps = 128): Mp3Frame {
  const index = BITRATES_V1.indexOf(kbps);
  if (index <= 0) throw new Error(`No MPEG-1 Layer III bitrate of ${kbps} kbps`);
  const data = Buffer.alloc(Math.floor((144 * kbps * 1000) / 44100));
  data.set([0xff, 0xfb, index << 4, 0x44]);
  return { data, duration: 1152 / 44100, header: parseFrameHeader(data)! };
}
