import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.js';

// As root in /root/radio (root's home is closed to others): the database's own user cannot reach DATA_DIR.
const closedHome = mkdtempSync(path.join(tmpdir(), 'station-home-')); // mode 0700, like /root
const dataDir = path.join(closedHome, 'radio', 'data');
const relocateTo = path.join(tmpdir(), `station-databases-${process.pid}`);
afterAll(() => {
  rmSync(closedHome, { recursive: true, force: true });
  rmSync(relocateTo, { recursive: true, force: true });
});

const uidOf = (name: string) => Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

it.runIf(process.getuid?.() === 0)(
  'runs the database from a folder closed to its user, opening nothing there, and finds it again at restart',
  async () => {
    mkdirSync(dataDir, { recursive: true });
    const lines: string[] = [];
    const first = await startEmbeddedPostgres({ dataDir, relocateTo, onLog: (line) => lines.push(line) });
    try {
      await query(first.url, "create table kept (body text); insert into kept values ('across a restart')");
    } finally {
      await first.stop();
    }
    // One line says what was done (the rest is the server's own log).
    const moved = () => lines.filter((line) => line.includes('cannot reach'));
    expect(moved()).toHaveLength(1);
    expect(moved()[0]).toMatch(
      /cannot reach .* is closed to others\): it is kept in .* instead, linked from /,
    );

    // Nothing was opened in the closed folder; the database's own folder is its user's alone.
    expect(statSync(closedHome).mode & 0o777).toBe(0o700);
    const link = path.join(dataDir, 'pg');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const kept = realpathSync(link);
    expect(kept.startsWith(relocateTo)).toBe(true);
    const stat = statSync(kept);
    expect(stat.mode & 0o777).toBe(0o700);
    expect([uidOf('postgres'), uidOf('nobody')]).toContain(stat.uid);

    const second = await startEmbeddedPostgres({ dataDir, relocateTo, onLog: (line) => lines.push(line) });
    try {
      expect(await query(second.url, 'select body from kept')).toEqual([{ body: 'across a restart' }]);
    } finally {
      await second.stop();
    }
    expect(moved()).toHaveLength(1);
  },
);
