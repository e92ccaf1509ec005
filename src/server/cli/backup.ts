import { parseArgs } from 'node:util';
import { restoreBackup, RestoreError, writeBackupFile } from '../features/backup/service.js';
import { fail, openStationDatabase } from './shell.js';

const USAGE = `Usage:
  npm run backup -- FILE            database, uploads, media library and clips into one archive (the station may be running)
  npm run restore -- FILE [--force] into a stopped station; --force replaces a station that holds data`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false } },
});
const [command, file] = positionals;
if ((command !== 'backup' && command !== 'restore') || !file || positionals.length > 2) fail(USAGE);

// A backup may be taken while the station runs (its server is shared); a restore needs it stopped.
const { config, database } = await openStationDatabase({ attach: command === 'backup' });
try {
  if (command === 'backup') {
    await writeBackupFile(database.db, config.dataDir, file);
    console.log(`Backed up the station into ${file}.`);
  } else {
    await restoreBackup(database.db, config.dataDir, file, { force: values.force });
    console.log(`Restored the station from ${file}.`);
  }
} catch (error) {
  if (error instanceof RestoreError) fail(error.message);
  throw error;
} finally {
  await database.close();
}
