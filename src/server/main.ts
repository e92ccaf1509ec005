import { ConfigError, loadConfig, type Config } from './config.js';
import { DatabaseOpenError } from './db/open-error.js';
import { createStation, type Station } from './start.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

let station: Station;
try {
  station = await createStation(config, { logger: { level: config.logLevel } });
} catch (error) {
  // A data directory that cannot be opened stops start-up with one line saying what to do.
  if (error instanceof DatabaseOpenError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const { app } = station;

if (station.firstSignIn) {
  const { username, password } = station.firstSignIn;
  const lines = password
    ? [
        'First start: a superuser account was created.',
        `  Username: ${username}`,
        `  Password: ${password}`,
        'This password is shown only once. Sign in at /dashboard-mgmt and change it in Settings,',
        'or set a new one with: npm run admin -- reset-password --username admin --password <new>',
      ]
    : [`First start: superuser "${username}" was created from ADMIN_USERNAME / ADMIN_PASSWORD.`];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

if (station.generatedSourcePassword) {
  const lines = [
    'First start: a live-input password was generated (set SOURCE_PASSWORD or rotate it in the Station tab).',
    `  Live input: point your encoder at icecast://source:${station.generatedSourcePassword}@<host>:${config.port}/stream`,
    'This password is shown only once.',
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    station.stop().then(
      () => {
        clearTimeout(force);
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
process.stdout.write(`${config.station.name} is on the air at http://localhost:${config.port}\n`);
