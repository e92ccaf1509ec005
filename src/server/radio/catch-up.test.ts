import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NowPlaying } from '../../common/radio.js';
import { createTestDatabase } from '../test/helpers.js';
import { radioStorage } from '../test/radio-storage.js';
import { RadioEngine } from './engine.js';
import type { Airing, Programming } from './programming.js';
import { makeMp3, tempAudioDir } from './test-audio.js';

// A stall (the event loop blocked, the machine stopped) must not leave the station behind the clock: a
// programme due after it starts where the wall clock says, whether the stall was caught up by sending the
// audio missed at once, or was too long for that and skipped.

const TICK_MS = 50;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let dir: string;
let fill: string;
let programme: string;
const engines: RadioEngine[] = [];

beforeAll(async () => {
  dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  [fill, programme] = await Promise.all([
    makeMp3(join(dir, 'fill.mp3'), { seconds: 30, frequency: 440 }),
    makeMp3(join(dir, 'programme.mp3'), { seconds: 10, frequency: 1000 }),
  ]);
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  for (const engine of engines) await engine.stop();
  await database?.close();
});

/** The fill, until a programme due at `at` (wall ms, set by the test); `prepared` once it is ready to begin. */
function scheduleOf() {
  let resolvePrepared: () => void = () => {};
  const schedule = {
    at: Infinity,
    prepared: new Promise<void>((resolve) => (resolvePrepared = resolve)),
  };
  const programming: Programming = {
    async next(from): Promise<Airing> {
      if (from >= schedule.at) {
        resolvePrepared();
        return { item: { path: programme, title: 'Programme', duration: 10 } };
      }
      const endsBy = schedule.at < from + 30_000 ? schedule.at : null;
      return { item: { path: fill, title: 'Fill', duration: 30 }, endsBy };
    },
    async hardChangeBetween(from, to) {
      return schedule.at > from && schedule.at <= to ? schedule.at : null;
    },
    aired() {},
  };
  return { schedule, programming };
}

async function startEngine(programming: Programming, maxCatchUpSeconds?: number) {
  const engine = new RadioEngine({
    config: {
      dataDir: dir,
      station: {
        name: 'Grace Live Radio',
        networkName: 'N',
        networkUrl: 'https://example.org',
        timeZone: 'UTC',
      },
    },
    storage: radioStorage(database.db, {}),
    tickMs: TICK_MS,
    maxCatchUpSeconds,
  });
  engines.push(engine);
  engine.setProgramming(programming);
  await engine.start();
  return engine;
}

const nowPlays = (engine: RadioEngine, title: string) =>
  new Promise<NowPlaying>((resolve) => {
    if (engine.nowPlaying().current_track.title === title) return resolve(engine.nowPlaying());
    const off = engine.onChange((np) => {
      if (np.current_track.title !== title) return;
      off();
      resolve(np);
    });
  });

/**
 * Where wall time falls on the stream clock: the stream clock less the wall clock (seconds), at its largest
 * over the engine's ticks until the stream passes `until`. The clock runs at most a tick ahead of the air,
 * and a tick held up by a busy machine only makes it lag, so the largest value is the engine's own.
 */
async function offsetUntil(engine: RadioEngine, until: number): Promise<number> {
  let offset = -Infinity;
  for (;;) {
    const clock = engine.nowPlaying().stream_clock;
    offset = Math.max(offset, clock - TICK_MS / 1000 - Date.now() / 1000);
    if (clock > until) return offset;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Blocks the event loop, as a stalled machine would. */
function stall(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** The stream second of the wall time `at` now, and later, once the programme has begun and aired a little. */
async function programmeStart(engine: RadioEngine, at: number, stalled: () => void) {
  const before = (await offsetUntil(engine, engine.nowPlaying().stream_clock + 0.5)) + at / 1000;
  stalled();
  const started = (await nowPlays(engine, 'Programme')).current_track.started_at;
  const due = (await offsetUntil(engine, started + 0.5)) + at / 1000;
  return { before, started, due };
}

describe('a stall before a programme starts', () => {
  it('is caught up: the audio missed is sent at once and the programme starts on the stream second of its time', async () => {
    const { schedule, programming } = scheduleOf();
    const engine = await startEngine(programming);
    await nowPlays(engine, 'Fill');
    schedule.at = Date.now() + 5000;
    await schedule.prepared;
    const { before, started, due } = await programmeStart(engine, schedule.at, () => stall(1500));
    // Caught up: the stream is where the wall clock says, not 1.5 s behind it …
    expect(Math.abs(due - before)).toBeLessThan(0.25);
    // … and the programme begins on its second.
    expect(Math.abs(started - due)).toBeLessThan(0.25);
  }, 30_000);

  it('too long to catch up, is skipped, and the programme still starts at its wall time', async () => {
    const { schedule, programming } = scheduleOf();
    const engine = await startEngine(programming, 1);
    await nowPlays(engine, 'Fill');
    schedule.at = Date.now() + 5000;
    await schedule.prepared;
    const { before, started, due } = await programmeStart(engine, schedule.at, () => stall(2000));
    // The stream carried on from where it was: the programme's time falls on an earlier second of it now …
    expect(before - due).toBeGreaterThan(1);
    // … and the programme begins there, not on the second it had before the stall.
    expect(Math.abs(started - due)).toBeLessThan(0.25);
  }, 30_000);
});
