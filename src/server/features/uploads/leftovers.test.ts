import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import { sweepLeftovers } from './work-files.js';

/** What a crash or a power cut leaves in DATA_DIR/uploads, and what is never theirs to remove. */

const HOUR = 60 * 60_000;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Makes `file` look last changed `ageMs` ago. */
function age(file: string, ageMs: number) {
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(file, when, when);
}

/** A folder holding `files`, each last changed `ageMs` ago. */
function folder(files: Record<string, number>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'station-leftovers-'));
  dirs.push(dir);
  for (const [name, ageMs] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), 'bytes');
    age(path.join(dir, name), ageMs);
  }
  return dir;
}

describe('what interrupted uploads leave in the uploads folder', () => {
  it('removes the work files untouched for an hour, and nothing else', async () => {
    const dir = folder({
      '.incoming-0123456789abcdef': 2 * HOUR,
      '.pixels-fedcba9876543210.png': HOUR + 1000,
      // Being received or re-encoded, here or by another instance sharing the folder.
      '.incoming-1111111111111111': 5 * 60_000,
      '.pixels-2222222222222222.png': 1000,
      // Stored uploads, however old, and names the station never makes.
      '0123456789abcdef0123456789abcdef.jpg': 100 * HOUR,
      '0123456789abcdef0123456789abcdef.mp3': 100 * HOUR,
      '.incoming-notours': 2 * HOUR,
      '.pixels-0123456789abcdef.jpg': 2 * HOUR,
      '.gitkeep': 2 * HOUR,
    });
    const removed = await sweepLeftovers(dir);
    expect(removed.sort()).toEqual(['.incoming-0123456789abcdef', '.pixels-fedcba9876543210.png']);
    expect(readdirSync(dir).sort()).toEqual([
      '.gitkeep',
      '.incoming-1111111111111111',
      '.incoming-notours',
      '.pixels-0123456789abcdef.jpg',
      '.pixels-2222222222222222.png',
      '0123456789abcdef0123456789abcdef.jpg',
      '0123456789abcdef0123456789abcdef.mp3',
    ]);
  });

  it('leaves a folder within the folder alone, however old its name', async () => {
    const dir = folder({ 'abcdefabcdefabcdefabcdefabcdefab.png': 2 * HOUR });
    mkdirSync(path.join(dir, '.incoming-aaaaaaaaaaaaaaaa'));
    age(path.join(dir, '.incoming-aaaaaaaaaaaaaaaa'), 2 * HOUR);
    expect(await sweepLeftovers(dir)).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([
      '.incoming-aaaaaaaaaaaaaaaa',
      'abcdefabcdefabcdefabcdefabcdefab.png',
    ]);
  });

  it('is swept when the station starts', async () => {
    const dataDir = folder({});
    const uploads = path.join(dataDir, 'uploads');
    mkdirSync(uploads);
    const left = path.join(uploads, '.incoming-0123456789abcdef');
    writeFileSync(left, 'half a sermon');
    age(left, 2 * HOUR);
    const t = await createTestApp({ DATA_DIR: dataDir });
    try {
      await vi.waitFor(() => expect(readdirSync(uploads)).toEqual([]));
    } finally {
      await t.close();
    }
  });
});
