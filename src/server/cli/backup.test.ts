import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { emailSubscribers, featuredContent } from '../db/schema.js';
import { running, signInTo } from '../test/station-process.js';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'station-backup-cli-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function cli(dataDir: string, ...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/server/cli/backup.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    return { code: 0, out: stdout.trim() };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, out: failed.stderr.trim() };
  }
}

async function contentOf(dataDir: string) {
  const handle = await openDatabase({ dataDir });
  try {
    return {
      featured: await handle.db.select().from(featuredContent),
      subscribers: await handle.db.select().from(emailSubscribers),
    };
  } finally {
    await handle.close();
  }
}

describe('npm run backup / npm run restore on the embedded database', () => {
  it('backs up content, uploads, the media library and subscribers, restores them into a fresh data directory, and refuses a non-empty one', async () => {
    const source = tempDir();
    const handle = await openDatabase({ dataDir: source });
    await handle.db.insert(featuredContent).values({
      title: 'Evensong',
      description: 'Sung at dusk',
      type: 'music',
      imageUrl: '/uploads/cover.png',
    });
    await handle.db.insert(emailSubscribers).values({ email: 'lydia@example.org', name: 'Lydia' });
    await handle.close();
    mkdirSync(path.join(source, 'uploads'));
    writeFileSync(path.join(source, 'uploads', 'cover.png'), 'picture bytes');
    // The AutoDJ's library and its subtitles: a restored station plays the same.
    const song = randomBytes(32 * 1024);
    const cue = 'WEBVTT\n\n00:00.000 --> 00:03.000\nAbide with me\n';
    mkdirSync(path.join(source, 'media'));
    writeFileSync(path.join(source, 'media', 'Abide With Me.mp3'), song);
    writeFileSync(path.join(source, 'media', 'Abide With Me.en.vtt'), cue);

    const file = path.join(tempDir(), 'station.tar.gz');
    expect(await cli(source, 'backup', file)).toEqual({
      code: 0,
      out: `Backed up the station into ${file}.`,
    });

    const target = tempDir();
    expect(await cli(target, 'restore', file)).toEqual({
      code: 0,
      out: `Restored the station from ${file}.`,
    });
    expect(await contentOf(target)).toEqual(await contentOf(source));
    expect(readFileSync(path.join(target, 'uploads', 'cover.png'), 'utf8')).toBe('picture bytes');
    expect(readFileSync(path.join(target, 'media', 'Abide With Me.mp3')).equals(song)).toBe(true);
    expect(readFileSync(path.join(target, 'media', 'Abide With Me.en.vtt'), 'utf8')).toBe(cue);

    expect(await cli(target, 'restore', file)).toEqual({
      code: 2,
      out: 'This station already holds data: restore with --force to replace all of it.',
    });
    expect((await cli(target, 'restore', file, '--force')).code).toBe(0);
    expect(await contentOf(target)).toEqual(await contentOf(source));
  }, 120_000);

  it('backs up a running station through its own database server', async () => {
    const dataDir = tempDir();
    const station = await running(dataDir);
    const file = path.join(tempDir(), 'live.tar.gz');
    try {
      const headers = { ...(await signInTo(station)), 'content-type': 'application/json' };
      const created = await fetch(`${station.url}/api/featured-content`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Vespers', description: 'Live while backed up', type: 'sermon' }),
      });
      expect(created.status).toBe(201);
      expect(await cli(dataDir, 'backup', file)).toEqual({
        code: 0,
        out: `Backed up the station into ${file}.`,
      });
      // The station goes on after the backup.
      expect((await fetch(`${station.url}/api/featured-content`)).status).toBe(200);
    } finally {
      station.child.kill('SIGTERM');
      await station.exited;
    }
    const target = tempDir();
    expect((await cli(target, 'restore', file)).code).toBe(0);
    expect((await contentOf(target)).featured.map((item) => item.title)).toEqual(['Vespers']);
  }, 120_000);

  it.each([[[]], [['backup']], [['copy', 'x.tar.gz']], [['restore', 'a', 'b']]])(
    'refuses %j with its usage',
    async (args) => {
      const result = await cli(tempDir(), ...args);
      expect(result.code).toBe(2);
      expect(result.out).toMatch(/^Usage:/);
    },
  );
});
