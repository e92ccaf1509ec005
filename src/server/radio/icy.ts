// Owns: one ICY metadata block (StreamTitle and StreamClock) and the interval between blocks.
// Must not: know listeners or mounts; the Broadcaster places the blocks in each listener's audio.
/** The ICY metadata interval we offer: 16000 audio bytes between metadata blocks, as most servers do. */
export const ICY_METAINT = 16000;

/** The longest metadata text an ICY block can carry (255 blocks of 16 bytes). */
const MAX_METADATA = 255 * 16;

// A quote followed by ';' would end the value early in every ICY parser; a typographic apostrophe reads the
// same. A NUL is the block's padding (the reader would stop there) and no control character belongs in a title.
const clean = (value: string) => value.replace(/'/g, '\u2019').replace(/\p{Cc}/gu, ' ');

/**
 * One ICY metadata block: `StreamTitle` and the stream clock of that point in the audio, so a player
 * knows which stream-clock second it is playing whatever its buffer (DESIGN.md section 5).
 */
export function icyMetadataBlock(streamTitle: string, streamClock: number): Buffer {
  const clock = `StreamClock='${streamClock.toFixed(2)}';`;
  // Shortened by whole characters: half of an emoji would reach the player as a replacement character.
  const characters = Array.from(clean(streamTitle));
  let text = `StreamTitle='${characters.join('')}';${clock}`;
  while (Buffer.byteLength(text) > MAX_METADATA) {
    characters.length = Math.max(0, characters.length - 64);
    text = `StreamTitle='${characters.join('')}';${clock}`;
  }
  const body = Buffer.from(text, 'utf8');
  const blocks = Math.ceil(body.length / 16);
  const out = Buffer.alloc(1 + blocks * 16);
  out[0] = blocks;
  body.copy(out, 1);
  return out;
}
