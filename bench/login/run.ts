// Sign-in under brute force (issue 5's target): 1,000 wrong passwords from one address are all refused,
// at most a handful reach argon2, and the right user still signs in from another address.
// Also shows that a forged X-Forwarded-For buys nothing while TRUST_PROXY is off.
// Run: node --import tsx bench/login/run.ts
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/client.js';
import { createAdminUser, passwordCheckMetrics } from '../../src/server/features/accounts/service.js';
import { createLocalBus } from '../../src/server/plugins/event-bus.js';

const USERNAME = 'pastor';
const PASSWORD = 'the-right-password';
const ATTEMPTS = 1_000;
const CONCURRENCY = 50;
const HANDFUL = 10;

async function station(trustProxy: string) {
  const config = loadConfig({
    DATA_DIR: 'memory://',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: trustProxy,
  });
  const database = await openDatabase(config);
  const bus = createLocalBus();
  await createAdminUser(database.db, { username: USERNAME, password: PASSWORD, role: 'superuser' });
  const app = await buildApp({ config, db: database.db, bus });
  await app.ready();
  const signIn = (password: string, forwardedFor: string) =>
    app.inject({
      method: 'POST',
      url: '/api/admin/login',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { username: USERNAME, password },
    });
  return {
    signIn,
    async close() {
      await app.close();
      await bus.close();
      await database.close();
    },
  };
}

/** Sends `count` wrong passwords, `CONCURRENCY` at a time; returns statuses and argon2 verifications spent. */
async function attack(
  signIn: (password: string, address: string) => Promise<{ statusCode: number }>,
  count: number,
  address: (i: number) => string,
) {
  const statuses = new Map<number, number>();
  const verificationsBefore = passwordCheckMetrics.verifications;
  const started = performance.now();
  for (let i = 0; i < count; i += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, count - i) }, (_, j) =>
      signIn(`guess-${i + j}`, address(i + j)),
    );
    for (const res of await Promise.all(batch))
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  }
  return {
    statuses: Object.fromEntries([...statuses].sort()),
    verified: passwordCheckMetrics.verifications - verificationsBefore,
    seconds: (performance.now() - started) / 1000,
  };
}

let failed = false;
const check = (ok: boolean, line: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  failed ||= !ok;
};

// Behind a trusted proxy: X-Forwarded-For is the caller's address.
{
  const s = await station('true');
  const result = await attack(s.signIn, ATTEMPTS, () => '203.0.113.66');
  console.log(
    `\n${ATTEMPTS} wrong passwords from 203.0.113.66 (${CONCURRENCY} in flight) in ${result.seconds.toFixed(2)} s:`,
    result.statuses,
  );
  check(
    !('200' in result.statuses) &&
      Object.keys(result.statuses).every((code) => code === '401' || code === '429'),
    'every attempt refused (401 or 429)',
  );
  check(result.verified <= HANDFUL, `${result.verified} reached password verification (at most ${HANDFUL})`);
  const fromAttacker = await s.signIn(PASSWORD, '203.0.113.66');
  check(
    fromAttacker.statusCode === 429,
    `the right password from the attacker's address is still held back: ${fromAttacker.statusCode}`,
  );
  const elsewhere = await s.signIn(PASSWORD, '198.51.100.5');
  check(
    elsewhere.statusCode === 200,
    `the right user signs in from another address: ${elsewhere.statusCode}`,
  );
  await s.close();
}

// No proxy trusted (the default): a new forged X-Forwarded-For per request is ignored.
{
  const s = await station('false');
  const result = await attack(
    s.signIn,
    ATTEMPTS,
    (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  );
  console.log(
    `\n${ATTEMPTS} wrong passwords with a forged X-Forwarded-For each, TRUST_PROXY off, in ${result.seconds.toFixed(2)} s:`,
    result.statuses,
  );
  check(
    result.verified <= HANDFUL,
    `${result.verified} reached password verification (forged addresses bought nothing)`,
  );
  await s.close();
}

// Why TRUST_PROXY is off by default: trusted blindly on a station exposed directly, each forged address is new.
{
  const s = await station('true');
  const result = await attack(s.signIn, 200, (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  console.log(
    `\n(for contrast) 200 forged addresses with TRUST_PROXY=true and no proxy in front: ${result.verified} reached password verification`,
  );
  await s.close();
}

console.log(failed ? '\nbench/login: target missed' : '\nbench/login: target met');
process.exitCode = failed ? 1 : 0;
