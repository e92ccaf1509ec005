import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { silentClient } from './test/silent-ws-client.js';
import { running } from './test/station-process.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'station-stop-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('stops cleanly when its whole process group is signalled (Ctrl-C, a service manager), with a browser that never answers', async () => {
  const station = await running(dataDir, { env: { LOG_LEVEL: 'warn' }, ownGroup: true });
  const client = await silentClient(Number(new URL(station.url).port));
  const pid = station.child.pid!;
  process.kill(-pid, 'SIGTERM');
  const code = await station.exited;

  expect(code).toBe(0);
  expect(await client.closeCode()).toBe(1001);
  // The station stopped its database itself, last: the server was not stopped under the station's final
  // writes (it would have been restarted, and the last listener figures lost), and no server is left.
  expect(station.output()).not.toMatch(/stopped unexpectedly|could not store|shutdown failed/);
  expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
}, 60_000);
