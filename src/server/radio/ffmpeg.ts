import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/**
 * Where the station's decoder and encoder come from (docs/decisions/024-audio-pipeline-on-ffmpeg.md): the
 * system's ffmpeg when it has one, else the static build an npm package ships for this platform, whichever is
 * newer when both are there. `FFMPEG_PATH` / `FFPROBE_PATH` name one outright.
 */
export interface MediaTool {
  path: string;
  /** Where it was found: 'environment', 'system' or 'npm'. */
  origin: 'environment' | 'system' | 'npm';
  /** The build's year (its copyright line): static git builds carry no release number to compare. */
  year: number;
  version: string;
}

const require = createRequire(import.meta.url);
const found = new Map<string, MediaTool>();

/** The ffmpeg the station runs. Throws with a clear message when there is none. */
export const ffmpegTool = () => tool('ffmpeg', 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg');
/** The ffprobe the library reads files with. */
export const ffprobeTool = () => tool('ffprobe', 'FFPROBE_PATH', '@ffprobe-installer/ffprobe');
export const ffmpegPath = () => ffmpegTool().path;
export const ffprobePath = () => ffprobeTool().path;

function tool(name: string, variable: string, npmPackage: string): MediaTool {
  const known = found.get(name);
  if (known) return known;
  const named = process.env[variable];
  const candidates: { path: string; origin: MediaTool['origin'] }[] = named
    ? [{ path: named, origin: 'environment' }]
    : [
        ...onPath(name).map((path) => ({ path, origin: 'system' as const })),
        ...npmBinary(npmPackage).map((path) => ({ path, origin: 'npm' as const })),
      ];
  let best: MediaTool | null = null;
  for (const candidate of candidates) {
    const described = describe(candidate.path);
    if (described && (!best || described.year > best.year)) best = { ...candidate, ...described };
  }
  if (!best) {
    throw new Error(
      named
        ? `${variable}=${named} is not a working ${name}`
        : `No ${name} found: run npm install (it brings one), or install ffmpeg from your system's packages`,
    );
  }
  found.set(name, best);
  return best;
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

function npmBinary(npmPackage: string): string[] {
  try {
    const { path } = require(npmPackage) as { path: string };
    // npm may have skipped the package's own `chmod` install script: the binary is ours to make runnable.
    try {
      accessSync(path, constants.X_OK);
    } catch {
      chmodSync(path, 0o755);
    }
    return [path];
  } catch {
    return []; // no build for this platform
  }
}

function describe(path: string): { year: number; version: string } | null {
  try {
    const out = execFileSync(path, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 });
    const first = out.split('\n')[0] ?? '';
    const version = /version (\S+)/.exec(first)?.[1] ?? 'unknown';
    const year = Number(/Copyright \(c\) \d{4}-(\d{4})/.exec(first)?.[1] ?? 0);
    return { year, version };
  } catch {
    return null;
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
