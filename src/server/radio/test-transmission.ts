// Owns: where the shipped test transmission (recording and subtitles) is, and its measured loudness.
// Must not: decide when it plays (the AutoDJ's fallback, engine.ts).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Folder of the shipped test-transmission recording and its `.LANG.vtt` subtitles. The build compiles
 * only TypeScript, so from dist/server/radio we read the committed files in src/server/radio/assets.
 */
export const TEST_TRANSMISSION_DIR =
  [join(here, 'assets'), resolve(here, '../../../src/server/radio/assets')].find((dir) =>
    existsSync(join(dir, 'test-transmission.mp3')),
  ) ?? join(here, 'assets');

export const TEST_TRANSMISSION_FILE = join(TEST_TRANSMISSION_DIR, 'test-transmission.mp3');

/** The recording's integrated loudness (ffmpeg ebur128), so it is levelled like analysed library items. */
export const TEST_TRANSMISSION_LOUDNESS_LUFS = -21.5;
