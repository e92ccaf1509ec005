import { afterEach, describe, expect, it } from 'vitest';
import { PocketSphinxRecogniser } from './pocketsphinx.js';
import { SPEECH_RATE } from './recogniser.js';

let open: PocketSphinxRecogniser[] = [];
afterEach(async () => {
  await Promise.all(open.map((r) => r.close()));
  open = [];
});

const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const t = setInterval(() => {
      if (check()) {
        clearInterval(t);
        resolve();
      }
    }, 20);
  });

/** A second of quiet noise (the decoder's work without words), on the stream clock from `clock`. */
const second = () => Int16Array.from({ length: SPEECH_RATE }, () => Math.round((Math.random() - 0.5) * 60));

describe('PocketSphinxRecogniser faults', () => {
  it('a recogniser that dies is replaced; meanwhile it says it is paused and why', async () => {
    const r = new PocketSphinxRecogniser({ restartDelaysMs: [100] });
    open.push(r);
    await until(() => r.status().state === 'listening');
    const first = r.pid!;
    process.kill(first, 'SIGKILL');
    await until(() => r.status().state === 'paused');
    expect(r.status().reason).toBe('it stopped (SIGKILL)');
    // Audio meanwhile goes nowhere and costs nothing.
    r.feed(0, second());
    await until(() => r.status().state === 'listening');
    expect(r.pid).not.toBe(first);
  }, 30_000);

  it('a recogniser that hangs with audio waiting is replaced', async () => {
    const r = new PocketSphinxRecogniser({ hangMs: 500, restartDelaysMs: [100] });
    open.push(r);
    await until(() => r.status().state === 'listening');
    const first = r.pid!;
    process.kill(first, 'SIGSTOP');
    r.feed(0, second());
    await until(() => r.status().state === 'paused');
    expect(r.status().reason).toBe('it stopped answering for 1 s');
    await until(() => r.status().state === 'listening');
    expect(r.pid).not.toBe(first);
  }, 30_000);

  it('a recogniser that falls behind skips audio rather than holding the station, and catches up', async () => {
    const r = new PocketSphinxRecogniser({ maxBacklogSeconds: 1, hangMs: 60_000 });
    open.push(r);
    await until(() => r.status().state === 'listening');
    const pid = r.pid!;
    process.kill(pid, 'SIGSTOP');
    // Far more than the pipe and the backlog hold: every call returns at once.
    for (let s = 0; s < 30; s++) r.feed(s, second());
    expect(r.status()).toMatchObject({
      state: 'paused',
      reason: 'it fell behind the station, and audio was skipped',
    });
    process.kill(pid, 'SIGCONT');
    await until(() => r.status().state === 'listening');
    expect(r.pid).toBe(pid);
  }, 30_000);
});
