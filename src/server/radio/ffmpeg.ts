// Owns: finding the media tools the station runs: ffmpeg, ffprobe; mpg123 and lame where the system has them.
// Must not: run them (their callers do), nor fall back to a bundled build (decision 031).
import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Where the station's ffmpeg and ffprobe come from: `FFMPEG_PATH` / `FFPROBE_PATH` when set, else the system's
 * (Debian's `ffmpeg` package, which gets security fixes). There is no fallback build: they read untrusted
 * uploads and streams, and the only static builds npm carries inside their packages are years behind
 * (docs/decisions/031). Without one, what needs it is refused with `MissingMediaToolError`; MP3s still play,
 * upload and measure through mpg123 and lame where the system has them (decisions 027, 028).
 *
 * What a station without ffmpeg tells whoever asked for it, naming the package to install.
 */
export class MissingMediaToolError extends Error {}

/** How an administrator gets ffmpeg and ffprobe (both are in Debian's `ffmpeg` package). */
export const INSTALL_FFMPEG = 'apt-get install ffmpeg';

const found = new Map<string, string>();

/** The ffmpeg the station runs. Throws MissingMediaToolError when there is none. */
export const ffmpegPath = () => tool('ffmpeg', 'FFMPEG_PATH');
/** The ffprobe the library reads files with. Throws MissingMediaToolError when there is none. */
export const ffprobePath = () => tool('ffprobe', 'FFPROBE_PATH');

function tool(name: string, variable: string): string {
  const known = found.get(name);
  if (known) return known;
  const named = process.env[variable];
  const path = named || onPath(name)[0];
  if (!path || !runs(path)) {
    throw new MissingMediaToolError(
      named
        ? `${variable}=${named} is not a working ${name}`
        : `No ${name} on this server: install it from the system's packages (Debian or Ubuntu: ${INSTALL_FFMPEG})`,
    );
  }
  found.set(name, path);
  return path;
}

function onPath(name: string): string[] {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .filter((path) => {
      try {
        accessSync(path, constants.X_OK);
        return statSync(path).isFile();
      } catch {
        return false;
      }
    })
    .slice(0, 1);
}

function runs(path: string): boolean {
  try {
    execFileSync(path, ['-hide_banner', '-version'], { timeout: 10_000, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A tool the station uses when the system has it and does without otherwise (mpg123, lame: decision 027):
 * `variable` names one outright, set empty for none; else the first on the PATH whose `--version` starts with
 * `banner`. Looked up once.
 */
export function optionalTool(name: string, variable: string, banner: string): () => string | null {
  let found: string | null | undefined;
  return () => {
    if (found !== undefined) return found;
    const named = process.env[variable];
    const candidate = named === undefined ? onPath(name)[0] : named || undefined;
    found = candidate && startsWith(candidate, banner) ? candidate : null;
    return found;
  };
}

function startsWith(path: string, banner: string): boolean {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 }).startsWith(banner);
  } catch {
    return false;
  }
}
