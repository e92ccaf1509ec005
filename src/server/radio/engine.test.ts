import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NowPlaying } from '../../common/radio.js';
import { createTestDatabase } from '../test/helpers.js';
import type { Cue } from './autodj.js';
import { radioStorage, storedListenerMinutes } from '../test/radio-storage.js';
import { RadioEngine } from './engine.js';
import { lameLibrary } from './lame-library.js';
import { makeMp3, tempAudioDir } from './test-audio.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let engine: RadioEngine;
let live: Buffer;
const clocks: number[] = [];

/** Waits until `check` holds, looking again every engine tick. */
async function until(check: () => boolean) {
  while (!check()) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    clocks.push(engine.nowPlaying().stream_clock);
  }
}

function change(check: (np: NowPlaying) => boolean) {
  return new Promise<NowPlaying>((resolve) => {
    const off = engine.onChange((np) => {
      if (check(np)) {
        off();
        resolve(np);
      }
    });
  });
}

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  await makeMp3(join(dir, 'media', 'Choir - Hymn.mp3'), { seconds: 2 });
  await writeFile(
    join(dir, 'media', 'Choir - Hymn.fr.vtt'),
    'WEBVTT\n\n00:00:00.100 --> 00:00:00.900\nBonjour\n',
  );
  live = await readFile(await makeMp3(join(dir, 'live.mp3'), { seconds: 1, bitrate: '96k' }));
  database = await createTestDatabase();
  engine = new RadioEngine({
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
    mediaDir: join(dir, 'media'),
    tickMs: 50,
    liveGapMs: 300,
    liveSilentHandBackMs: 2500,
    listenerPushMs: 100,
  });
  await engine.start();
}, 60_000);
afterAll(async () => {
  await engine?.stop();
  await database?.close();
});

describe('RadioEngine', () => {
  it('plays the library in real time and hands its subtitles to onCue on the stream clock', async () => {
    const cue = await new Promise<Cue>((resolve) => {
      const off = engine.onCue((c) => {
        off();
        resolve(c);
      });
    });
    expect(cue).toMatchObject({ language: 'fr', text: 'Bonjour' });
    expect(cue.streamClockEnd - cue.streamClockStart).toBeCloseTo(0.8, 5);
    expect(engine.nowPlaying().current_track).toMatchObject({ title: 'Hymn', artist: 'Choir' });
    const startedAt = performance.now();
    const from = engine.nowPlaying().stream_clock;
    await until(() => performance.now() - startedAt > 600);
    const advanced = engine.nowPlaying().stream_clock - from;
    // Real time: about 0.6 s of audio in 0.6 s, give or take a tick.
    expect(advanced).toBeGreaterThan(0.4);
    expect(advanced).toBeLessThan(0.9);
  });

  it('covers a stalled live encoder with silence, then hands back to the AutoDJ; the clock never goes back', async () => {
    const session = engine.live.begin({ name: 'Evening Service' })!;
    expect(engine.live.begin({ name: 'Intruder' })).toBeNull();
    const wentLive = change((np) => np.is_live);
    session.write(live);
    expect((await wentLive).current_track.title).toBe('Evening Service');
    const liveFrom = engine.nowPlaying().stream_clock;
    // The encoder sent 1 s and then nothing: the broadcast keeps going past it.
    await until(() => engine.nowPlaying().stream_clock > liveFrom + 2);
    expect(engine.nowPlaying().is_live).toBe(true);
    const back = change((np) => !np.is_live);
    session.end();
    expect((await back).current_track.title).toBe('Hymn');
    for (let i = 1; i < clocks.length; i++) expect(clocks[i]!).toBeGreaterThanOrEqual(clocks[i - 1]!);
    // The newest frames, by stream clock, are there for clips.
    const now = engine.nowPlaying().stream_clock;
    const recent = engine.framesBetween(now - 2, now);
    expect(recent.reduce((s, f) => s + f.duration, 0)).toBeGreaterThan(1.9);
  });

  it('hands back to the AutoDJ when a connected encoder goes silent, with no gap in the broadcast, and back to live when it sends again', async () => {
    const session = engine.live.begin({ name: 'Frozen Encoder' })!;
    const wentLive = change((np) => np.is_live);
    session.write(live);
    await wentLive;
    // The encoder freezes: its connection stays open, nothing arrives.
    const handedBack = change((np) => !np.is_live);
    let stalledFor = 0;
    let last = { clock: engine.nowPlaying().stream_clock, at: performance.now() };
    const watch = setInterval(() => {
      const clock = engine.nowPlaying().stream_clock;
      if (clock > last.clock) last = { clock, at: performance.now() };
      else stalledFor = Math.max(stalledFor, performance.now() - last.at);
    }, 20);
    const back = await handedBack;
    clearInterval(watch);
    expect(back.current_track.title).toBe('Hymn');
    // Silence filled the wait within the gap time (300 ms) and a tick or two: nothing a player would hear as a gap.
    expect(stalledFor).toBeLessThan(700);
    const liveAgain = change((np) => np.is_live);
    session.write(live);
    expect((await liveAgain).current_track.title).toBe('Frozen Encoder');
    const ended = change((np) => !np.is_live);
    session.end();
    await ended;
  });

  it.skipIf(!lameLibrary())(
    'encodes every bitrate in its own process where the LAME library loads: no encoder process runs',
    () => {
      expect(engine.nowPlaying().stream_clock).toBeGreaterThan(0);
      const children = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)]).toString();
      expect(children).not.toMatch(/(^|\/)lame |libmp3lame/m);
    },
  );

  it('stores the minute when stopping', async () => {
    await engine.stop();
    const rows = await storedListenerMinutes(database.db);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]!.listeners).toBe(0);
  });
});
