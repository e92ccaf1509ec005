// npm start: builds whatever is missing, unfinished or older than the code, saying so, then starts the station.
// npm's start script `exec`s this, so npm stopped with a signal passes it straight to us (sh would not).
import { spawn } from 'node:child_process';
import { partsToBuild } from './build-state.mjs';

const SIGNALS = ['SIGINT', 'SIGTERM'];

// npm killed outright (kill -9) passes nothing on, and the station would go on holding the port as an orphan:
// once our parent is gone, stop as npm's SIGTERM would have told us to.
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  process.kill(process.pid, 'SIGTERM');
}, 1000).unref();

/** The signal that asked the start to stop while it was building, if one did. */
let stopping = null;

/**
 * Runs one build script in its own process group and answers its exit code. A stop asked for meanwhile
 * (Ctrl-C, or npm start signalled alone by a service manager) reaches the whole build, npm, sh and vite or
 * tsc under it, so none of it goes on building behind a stopped start.
 */
function build(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit', detached: true });
    const pass = (signal) => {
      stopping = signal;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the build has already ended
      }
    };
    for (const signal of SIGNALS) process.on(signal, pass);
    child.once('exit', (code) => {
      for (const signal of SIGNALS) process.off(signal, pass);
      resolve(code ?? 1);
    });
  });
}
for (const { script, what } of partsToBuild()) {
  const started = Date.now();
  console.log(`Building ${what} (a first start takes about a minute)...`);
  const code = await build(script);
  if (stopping) {
    console.error(`Stopped while building ${what}; npm start builds it again next time.`);
    process.exit(stopping === 'SIGINT' ? 130 : 143);
  }
  if (code !== 0) {
    console.error(`Building ${what} failed (see above); npm start tries again next time.`);
    process.exit(code);
  }
  console.log(`Built ${what} in ${Math.round((Date.now() - started) / 1000)} s.`);
}
await import('../dist/server/main.js');
