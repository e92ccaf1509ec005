import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { DatabaseOpenError } from '../db/open-error.js';

/** A shell command's refusal: one line on stderr and exit code 2. */
export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The station's configuration and database, or one clear line saying why not. */
export async function openStationDatabase(options: { attach?: boolean } = {}) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }
  try {
    return { config, database: await openDatabase({ ...config, ...options }) };
  } catch (error) {
    fail(error instanceof DatabaseOpenError ? error.message : String(error));
  }
}
