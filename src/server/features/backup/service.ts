import { spawn } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { once } from 'node:events';
import type { Database } from '../../db/client.js';
import { countRows, dumpDatabase, restoreDatabase, RestoreError } from '../../db/dump.js';

export { RestoreError };

const DUMP_FILE = 'database.jsonl';

/** DATA_DIR/uploads, where staff's pictures live; none when the station runs in memory. */
const uploadsDirOf = (dataDir: string) =>
  dataDir === 'memory://' ? undefined : path.resolve(dataDir, 'uploads');

export const backupFileName = (date = new Date()) =>
  `station-backup-${date.toISOString().slice(0, 10)}.tar.gz`;

/**
 * One gzip'd tar archive holding the database (every table's rows, from one snapshot) and the uploads
 * folder; streamed, so a large library never sits in memory. Works on either database.
 */
export async function createBackup(db: Database, dataDir: string): Promise<Readable> {
  const staging = mkdtempSync(path.join(os.tmpdir(), 'station-backup-'));
  try {
    const out = createWriteStream(path.join(staging, DUMP_FILE));
    await dumpDatabase(db, async (line) => {
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    });
    out.end();
    await once(out, 'close');
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const uploads = uploadsDirOf(dataDir);
  const args = ['-cz', '-C', staging, DUMP_FILE];
  if (uploads && existsSync(uploads)) args.push('-C', path.dirname(uploads), path.basename(uploads));
  const tar = spawn('tar', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  tar.on('close', () => rmSync(staging, { recursive: true, force: true }));
  return tar.stdout;
}

export async function writeBackupFile(db: Database, dataDir: string, file: string) {
  const archive = await createBackup(db, dataDir);
  const out = createWriteStream(file);
  archive.pipe(out);
  await once(out, 'close');
}

/** Whether the station holds anything a restore would replace: rows in any table or uploaded files. */
export async function stationIsEmpty(db: Database, dataDir: string): Promise<boolean> {
  const uploads = uploadsDirOf(dataDir);
  const hasUploads = uploads !== undefined && existsSync(uploads) && readdirSync(uploads).length > 0;
  return !hasUploads && (await countRows(db)) === 0;
}

function run(command: string, args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new RestoreError(`This file is not a station backup (${stderr.trim()}).`)),
    );
  });
}

/**
 * Restores an archive made by createBackup: the database in one transaction, then the uploads folder
 * (an existing one is kept beside it as uploads.before-restore-<time>). Refuses a station that already
 * holds data unless `force`.
 */
export async function restoreBackup(
  db: Database,
  dataDir: string,
  file: string,
  options: { force: boolean },
) {
  if (!existsSync(file)) throw new RestoreError(`${file} does not exist.`);
  if (!options.force && !(await stationIsEmpty(db, dataDir))) {
    throw new RestoreError('This station already holds data: restore with --force to replace all of it.');
  }
  // Beside the uploads folder, so moving the restored one into place is a rename on the same disk.
  const stagingParent = uploadsDirOf(dataDir) ? path.resolve(dataDir) : os.tmpdir();
  mkdirSync(stagingParent, { recursive: true });
  const staging = mkdtempSync(path.join(stagingParent, '.restore-'));
  try {
    await run('tar', ['-xzf', path.resolve(file), '-C', staging, '--no-same-owner']);
    const dump = path.join(staging, DUMP_FILE);
    if (!existsSync(dump)) throw new RestoreError('This file is not a station backup (no database in it).');
    // The iterator is taken at once: it buffers lines read while the restore's first queries run.
    const reader = createInterface({ input: createReadStream(dump), crlfDelay: Infinity });
    const iterator = reader[Symbol.asyncIterator]();
    await restoreDatabase(db, { [Symbol.asyncIterator]: () => iterator }, options);
    const uploads = uploadsDirOf(dataDir);
    const restored = path.join(staging, 'uploads');
    if (uploads && existsSync(restored)) {
      if (existsSync(uploads) && readdirSync(uploads).length > 0) {
        renameSync(uploads, `${uploads}.before-restore-${Date.now()}`);
      } else {
        rmSync(uploads, { recursive: true, force: true });
      }
      renameSync(restored, uploads);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
