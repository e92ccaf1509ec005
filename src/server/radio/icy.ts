/** The ICY metadata interval we offer: 16000 audio bytes between metadata blocks, as most servers do. */
export const ICY_METAINT = 16000;

/** The longest metadata text an ICY block can carry (255 blocks of 16 bytes). */
const MAX_METADATA = 255 * 16;

// A quote followed by ';' would end the value early in every ICY parser; a typographic apostrophe reads the same.
const clean = (value: string) => value.replace(/'/g, '\u2019').replace(/[\r\n]/g, ' ');

/**
 * One ICY metadata block: `StreamTitle` and the stream clock of that point in the audio, so a player
 * knows which stream-clock second it is playing whatever its buffer (DESIGN.md section 5).
 */
export function icyMetadataBlock(streamTitle: string, streamClock: number): Buffer {
  const clock = `StreamClock='${streamClock.toFixed(2)}';`;
  let title = clean(streamTitle);
  let text = `StreamTitle='${title}';${clock}`;
  while (Buffer.byteLength(text) > MAX_METADATA) {
    title = title.slice(0, Math.max(0, title.length - 64));
    text = `StreamTitle='${title}';${clock}`;
  }
  const body = Buffer.from(text, 'utf8');
  const blocks = Math.ceil(body.length / 16);
  const out = Buffer.alloc(1 + blocks * 16);
  out[0] = blocks;
  body.copy(out, 1);
  return out;
}
