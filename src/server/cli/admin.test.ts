import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { adminUsers } from '../db/schema.js';
import { verifyPassword } from '../features/accounts/service.js';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'station-cli-'));
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };

async function admin(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/server/cli/admin.ts', ...args], {
      env,
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, out: failed.stderr };
  }
}

async function storedUser(username: string) {
  const handle = await openDatabase({ dataDir });
  try {
    const [user] = await handle.db.select().from(adminUsers).where(eq(adminUsers.username, username));
    return user;
  } finally {
    await handle.close();
  }
}

describe('npm run admin', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an account, refuses a duplicate, and resets a password', async () => {
    expect(
      await admin('create', '--username', 'deacon', '--password', 'first password', '--role', 'superuser'),
    ).toMatchObject({
      code: 0,
      out: expect.stringContaining('Created superuser "deacon"'),
    });
    expect(await admin('create', '--username', 'deacon', '--password', 'other password')).toEqual({
      code: 2,
      out: 'Username already exists\n',
    });
    expect(
      (await admin('reset-password', '--username', 'deacon', '--password', 'second password')).code,
    ).toBe(0);
    const user = await storedUser('deacon');
    expect(user?.role).toBe('superuser');
    expect(await verifyPassword(user!.passwordHash, 'second password')).toBe(true);
  });

  it.each([
    [['create', '--username', 'ab', '--password', 'long enough'], 'Username must be at least 3 characters'],
    [['create', '--username', 'abc', '--password', 'short'], 'Password must be at least 8 characters'],
    [
      ['create', '--username', 'abc', '--password', 'long enough', '--role', 'owner'],
      'Role must be admin, superuser or presenter',
    ],
    [['reset-password', '--username', 'nobody', '--password', 'long enough'], 'No admin user named "nobody"'],
    [['delete', '--username', 'abc'], 'Usage:'],
  ])('refuses %j with a clear message', async (args, message) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.out).toContain(message);
  });
});
