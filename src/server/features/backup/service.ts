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

/**
 * The folders of DATA_DIR holding what the station plays or serves: `uploads` (pictures and sermon audio,
 * served at /uploads), `media` (the AutoDJ's library and its .LANG.vtt subtitles) and `clips` (listeners'
 * shared clips). The database comes as a dump; the GeoIP file is downloaded again, not backed up.
 */
export const BACKED_UP_FOLDERS = ['uploads', 'media', 'clips'] as const;

/** DATA_DIR itself; none when the station runs in memory (it then has no folders of its own). */
const folderRootOf = (dataDir: string) => (dataDir === 'memory://' ? undefined : path.resolve(dataDir));

/** The backed-up folders that exist in DATA_DIR. */
const foldersIn = (root: string | undefined) =>
  root ? BACKED_UP_FOLDERS.filter((name) => existsSync(path.join(root, name))) : [];

export const backupFileName = (date = new Date()) =>
  `station-backup-${date.toISOString().slice(0, 10)}.tar.gz`;

/**
 * One gzip'd tar archive holding the database (every table's rows, from one snapshot) and every folder the
 * station plays or serves from; streamed, so a large library never sits in memory. Works on either database.
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
  const root = folderRootOf(dataDir);
  const folders = foldersIn(root);
  const args = ['-cz', '-C', staging, DUMP_FILE];
  if (root && folders.length > 0) args.push('-C', root, ...folders);
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

const holdsFiles = (folder: string) => existsSync(folder) && readdirSync(folder).length > 0;

/** Whether the station holds anything a restore would replace: rows in any table or files in its folders. */
export async function stationIsEmpty(db: Database, dataDir: string): Promise<boolean> {
  const root = folderRootOf(dataDir);
  const hasFiles = foldersIn(root).some((name) => holdsFiles(path.join(root!, name)));
  return !hasFiles && (await countRows(db)) === 0;
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
 * Restores an archive made by createBackup: the database in one transaction, then each folder it holds
 * (uploads, media, clips; an existing one with files is kept beside it as <folder>.before-restore-<time>).
 * Refuses a station that already holds data unless `force`.
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
  // Beside the folders, so moving a restored one into place is a rename on the same disk.
  const root = folderRootOf(dataDir);
  const stagingParent = root ?? os.tmpdir();
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
    const at = Date.now();
    for (const name of root ? foldersIn(staging) : []) {
      const folder = path.join(root!, name);
      if (holdsFiles(folder)) renameSync(folder, `${folder}.before-restore-${at}`);
      else rmSync(folder, { recursive: true, force: true });
      renameSync(path.join(staging, name), folder);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
