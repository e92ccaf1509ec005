import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { running, signInTo, startStationProcess, type StationProcess } from '../test/station-process.js';
import { openDatabase } from './client.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'station-durable-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The titles the station lists, once it answers reads: a pooled connection the database's crash broke may fail one first. */
async function titlesOn(station: StationProcess): Promise<Set<string>> {
  const until = Date.now() + 15_000;
  for (;;) {
    const response = await fetch(`${station.url}/api/featured-content`);
    if (response.ok)
      return new Set(((await response.json()) as { title: string }[]).map((item) => item.title));
    const body = await response.text();
    if (response.status < 500 || Date.now() > until)
      throw new Error(`reading back: ${response.status} ${body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the embedded database', () => {
  it('keeps every acknowledged write through kill -9 of the station mid-write, round after round', async () => {
    const dataDir = freshDir();
    const acknowledged: string[] = [];
    for (let round = 0; round < 4; round++) {
      const station = await running(dataDir);
      const present = await titlesOn(station);
      expect(acknowledged.filter((title) => !present.has(title))).toEqual([]);
      if (round === 3) {
        station.child.kill('SIGTERM');
        await station.exited;
        break;
      }
      const headers = { ...(await signInTo(station)), 'content-type': 'application/json' };
      let sent = 0;
      let killed = false;
      // Four writers keep requests in flight; the station is killed once 25 more writes were acknowledged.
      const writer = async () => {
        while (!killed) {
          const title = `round ${round} write ${sent++}`;
          try {
            const response = await fetch(`${station.url}/api/featured-content`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ title, description: 'Kept through a crash', type: 'devotion' }),
            });
            if (response.status === 201) acknowledged.push(title);
            if (acknowledged.length >= (round + 1) * 25 && !killed) {
              killed = true;
              station.child.kill('SIGKILL');
            }
          } catch {
            return; // the connection died with the station: this write was never acknowledged
          }
        }
      };
      await Promise.all([writer(), writer(), writer(), writer()]);
      await station.exited;
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(75);
  }, 120_000);

  it('starts its database again when the database process is killed, and loses no acknowledged write', async () => {
    const dataDir = freshDir();
    const station = await running(dataDir);
    try {
      const headers = { ...(await signInTo(station)), 'content-type': 'application/json' };
      const post = (title: string) =>
        fetch(`${station.url}/api/featured-content`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title, description: 'Written around a database crash', type: 'music' }),
        });
      const acknowledged: string[] = [];
      for (let i = 0; i < 5; i++)
        if ((await post(`before ${i}`)).status === 201) acknowledged.push(`before ${i}`);
      const postmaster = Number(
        readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(postmaster, 'SIGKILL');
      // Writes are refused while the database is down, then acknowledged again once it is back.
      const until = Date.now() + 60_000;
      let attempt = 0;
      while (Date.now() < until) {
        const title = `after ${attempt++}`;
        const response = await post(title);
        if (response.status === 201) {
          acknowledged.push(title);
          break;
        }
        expect(response.status).toBeGreaterThanOrEqual(500);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(acknowledged.at(-1)).toMatch(/^after/);
      const present = await titlesOn(station);
      expect(acknowledged.filter((title) => !present.has(title))).toEqual([]);
    } finally {
      station.child.kill('SIGTERM');
      await station.exited;
    }
  }, 90_000);

  it('commits to stable storage before acknowledging: fsync and synchronous commit are on', async () => {
    const dataDir = freshDir();
    const handle = await openDatabase({ dataDir });
    try {
      expect(handle.kind).toBe('embedded');
      const show = async (name: string) => {
        const result = (await handle.db.execute(sql.raw(`show ${name}`))) as unknown as {
          rows: Record<string, string>[];
        };
        return Object.values(result.rows[0]!)[0];
      };
      expect(await show('fsync')).toBe('on');
      expect(await show('synchronous_commit')).toBe('on');
      expect(await show('full_page_writes')).toBe('on');
      expect(await show('wal_sync_method')).toMatch(/^(fdatasync|fsync|open_datasync|open_sync)$/);
    } finally {
      await handle.close();
    }
  });

  it('refuses a second station on the same data directory with one line', async () => {
    const dataDir = freshDir();
    const first = await running(dataDir);
    try {
      const second = await startStationProcess(dataDir);
      expect(second).toMatchObject({ code: 1 });
      if (!('refused' in second)) throw new Error('the second station started');
      expect(second.refused).toMatch(
        /^Another station \(process \d+\) is already running on .*: stop it first/,
      );
      expect(second.refused.split('\n')).toHaveLength(1);
      expect((await fetch(`${first.url}/api/featured-content`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  }, 60_000);

  it.each([
    [
      'a folder that is not a database',
      (pg: string) => writeFileSync(path.join(pg, 'notes.txt'), 'x'),
      /is not an embedded database .*nothing was changed/,
    ],
    [
      'a database from a newer PostgreSQL',
      (pg: string) => writeFileSync(path.join(pg, 'PG_VERSION'), '99\n'),
      /made by PostgreSQL 99, newer than this station's/,
    ],
    [
      'a corrupt database',
      (pg: string) => {
        writeFileSync(path.join(pg, 'PG_VERSION'), '18\n');
        mkdirSync(path.join(pg, 'global'));
      },
      /could not be opened .*nothing was changed/,
    ],
  ])(
    'stops with one clear line on %s, and deletes nothing',
    async (_name, spoil, message) => {
      const dataDir = freshDir();
      const pg = path.join(dataDir, 'pg');
      mkdirSync(pg);
      spoil(pg);
      const before = readdirSync(pg).sort();
      const started = await startStationProcess(dataDir);
      if (!('refused' in started)) throw new Error('the station started');
      expect(started.code).toBe(1);
      expect(started.refused).toMatch(message);
      expect(started.refused.split('\n')).toHaveLength(1);
      expect(readdirSync(pg)).toEqual(expect.arrayContaining(before));
    },
    60_000,
  );
});
