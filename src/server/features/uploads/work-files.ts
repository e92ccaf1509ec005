import { randomBytes } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * Files the station works on beside where they will live: an upload being received (in `media/` or
 * `uploads/`), a picture's pixels on the way to its encoder. Dot-names: never served, never imported.
 */
const EXTENSIONS = { incoming: '', pixels: '.png' } as const;
export const INCOMING_PREFIX = '.incoming-';
const WORK_FILE = /^\.(?:incoming|pixels)-[0-9a-f]{16}(?:\.png)?$/;

/** A new work file's path in `dir`. */
export function workFile(dir: string, kind: keyof typeof EXTENSIONS): string {
  return path.join(dir, `.${kind}-${randomBytes(8).toString('hex')}${EXTENSIONS[kind]}`);
}

/**
 * A work file untouched this long was left by a crash or a power cut: nothing works on one for longer (audio
 * is checked one upload at a time, at most four in line, each stopped at 10 minutes), so instances sharing the
 * folder leave each other's uploads alone.
 */
const LEFTOVER_MS = 60 * 60_000;

/** Removes the work files an interrupted station left in `dir`, and answers their names. */
export async function sweepLeftovers(dir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    if (!WORK_FILE.test(name)) continue;
    const file = path.join(dir, name);
    const changed = (await stat(file).catch(() => undefined))?.mtimeMs;
    if (changed === undefined || now - changed < LEFTOVER_MS) continue;
    await unlink(file).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

/** Sweeps `dir` now and then every LEFTOVER_MS while `app` runs. */
export function keepSwept(app: FastifyInstance, dir: string): void {
  const sweep = () =>
    sweepLeftovers(dir).then(
      (names) => {
        if (names.length) app.log.info({ files: names.length }, 'removed what interrupted uploads left');
      },
      (error: unknown) => app.log.warn({ err: error }, 'could not look for what interrupted uploads left'),
    );
  void sweep();
  const timer = setInterval(sweep, LEFTOVER_MS).unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
