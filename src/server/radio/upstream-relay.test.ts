import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUDIO_SETTINGS } from '../../common/audio-settings.js';
import type { NowPlaying } from '../../common/radio.js';
import { createTestDatabase } from '../test/helpers.js';
import { waitFor } from '../test/icecast-server.js';
import { radioStorage } from '../test/radio-storage.js';
import { startStationElsewhere, type StationElsewhere } from '../test/station-elsewhere.js';
import { RadioEngine, type AirEvent } from './engine.js';
import { ExternalStationSource } from './external-source.js';
import { decodeMono, makeAudio, makeTone, tempAudioDir, windowLevels } from './test-audio.js';

/**
 * A station elsewhere relayed by the engine, in real time: a local server sends MP3 and AAC streams as an
 * Icecast does, with its status naming what plays, and what the engine broadcasts is decoded and measured.
 * The AutoDJ plays low rumbling noise, the station elsewhere tones, so what airs tells them apart.
 */

const STATION = 'Grace Live Radio';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let engine: RadioEngine;
let elsewhere: StationElsewhere;
const events: AirEvent[] = [];

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  await makeAudio(join(dir, 'media', 'Choir - Morning Hymn.mp3'), 'anoisesrc=color=brown', { seconds: 20 });
  elsewhere = await startStationElsewhere();
  // A quiet MP3 tone and a loud AAC one: 27 dB apart as sent.
  elsewhere.mount('/psalm', {
    file: await makeTone(join(dir, 'psalm.mp3'), { seconds: 8, frequency: 880, peakDbfs: -30 }),
    format: 'mp3',
    contentType: 'audio/mpeg',
    title: 'Choir - Psalm 23',
  });
  elsewhere.mount('/sermon', {
    file: await makeTone(join(dir, 'sermon.aac'), { seconds: 8, frequency: 1320, peakDbfs: -3 }),
    format: 'adts',
    contentType: 'audio/aac',
    title: 'Pastor John - Sunday Sermon',
  });
  // A second of tone, six of silence, then tone again: dead air in the middle.
  elsewhere.mount('/pauses', {
    file: await makeTone(join(dir, 'pauses.mp3'), {
      seconds: 1,
      frequency: 880,
      peakDbfs: -20,
      tailSilence: 6,
    }),
    format: 'mp3',
    contentType: 'audio/mpeg',
    title: 'Choir - Vespers',
  });
  // A playlist naming a stream on the same server: the station never fetches what it lists.
  elsewhere.mount('/playlist', {
    body: `#EXTM3U\n#EXT-X-TARGETDURATION:8\n#EXTINF:8,\n${elsewhere.origin}/psalm\n#EXT-X-ENDLIST\n`,
    contentType: 'application/vnd.apple.mpegurl',
    title: 'Choir - Listed',
  });
  database = await createTestDatabase();
  engine = new RadioEngine({
    config: {
      dataDir: dir,
      station: { name: STATION, networkName: 'N', networkUrl: 'https://example.org', timeZone: 'UTC' },
    },
    storage: {
      ...radioStorage(database.db, {}),
      // One bitrate is all these checks need; dead air after 3 s rather than 10.
      audioSettings: async () => ({ ...DEFAULT_AUDIO_SETTINGS, silence_seconds: 3, bitrates: [128] }),
    },
    mediaDir: join(dir, 'media'),
    tickMs: 50,
    liveGapMs: 300,
    liveSilentHandBackMs: 2000,
    listenerPushMs: 100,
    relay: { retryMs: 200, maxRetryMs: 1000, stallMs: 3000 },
  });
  engine.onEvent((event) => events.push(event));
  await engine.start();
}, 60_000);
afterAll(async () => {
  await engine?.stop();
  await elsewhere?.close();
  await database?.close();
});
afterEach(() => {
  events.length = 0;
});

const station = (path: string) =>
  new ExternalStationSource({
    streamSource: `icecast:${elsewhere.origin}${path}`,
    stationName: STATION,
    log: { warn: () => {}, info: () => {} },
    pollIntervalMs: 200,
  });

/** The next now playing that satisfies `check` (now, if it does already). */
function nowPlaying(check: (np: NowPlaying) => boolean, timeoutMs = 20_000): Promise<NowPlaying> {
  return new Promise((resolve, reject) => {
    if (check(engine.nowPlaying())) return resolve(engine.nowPlaying());
    const timer = setTimeout(() => {
      off();
      reject(new Error(`now playing stayed ${JSON.stringify(engine.nowPlaying().current_track)}`));
    }, timeoutMs);
    const off = engine.onChange((np) => {
      if (!check(np)) return;
      clearTimeout(timer);
      off();
      resolve(np);
    });
  });
}

const title = (text: string) => (np: NowPlaying) => np.current_track.title === text;

/** Waits until the broadcast has passed stream-clock second `clock`. */
async function broadcastPast(clock: number) {
  while (engine.nowPlaying().stream_clock < clock) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * How many 0.1 s windows fail `check`. One is let pass: a moment's stall of a machine the whole suite shares
 * (the broadcast then carries a silent frame or two), not what these checks are about.
 */
const misses = (levels: number[], check: (level: number, i: number) => boolean) =>
  levels.filter((level, i) => !check(level, i)).length;

const twice = (f: number) => `bandpass=f=${f}:t=q:w=8,bandpass=f=${f}:t=q:w=8`;

/** What was broadcast between two stream-clock seconds: its level, and the level around `frequency`, in 0.1 s windows. */
async function heard(from: number, to: number, frequency: number) {
  await broadcastPast(to);
  const bytes = Buffer.concat(engine.framesBetween(from, to).map((frame) => frame.data));
  const samples = await decodeMono(bytes);
  return {
    all: windowLevels(samples, 0.1),
    band: windowLevels(await decodeMono(bytes, twice(frequency)), 0.1),
    rms: windowLevels(samples, samples.length / 44100)[0]!,
    peak: samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0),
  };
}

describe('a station elsewhere relayed through the pipeline', () => {
  let psalm: Awaited<ReturnType<typeof heard>>;

  it('takes the air at once with its MP3 stream, its title from its status, its tone levelled', async () => {
    await nowPlaying(title('Morning Hymn'));
    const relayed = nowPlaying(title('Psalm 23'));
    await engine.relay(station('/psalm'));
    const np = await relayed;
    expect(np).toMatchObject({ is_live: true, current_track: { artist: 'Choir', artwork_url: null } });
    expect(elsewhere.requests).toEqual(['/psalm']);
    const from = np.current_track.started_at;
    psalm = await heard(from + 0.3, from + 3, 880);
    // Its tone is what airs, not the AutoDJ's rumble.
    expect(misses(psalm.all, (level, i) => psalm.band[i]! > level - 3)).toBeLessThanOrEqual(1);
    // Sent at −33 dBFS RMS, lifted by the live chain towards the target.
    expect(psalm.rms).toBeGreaterThan(-28);
    expect(psalm.rms).toBeLessThan(-10);
    // And the rumble before it, to the frame it took over: no crossfade.
    const before = await heard(from - 2, from, 880);
    expect(misses(before.all, (level, i) => level > -45 && before.band[i]! < level - 10)).toBeLessThanOrEqual(
      1,
    );
  }, 40_000);

  it('is covered by the AutoDJ when it goes off the air, staff told once, and is back when it is', async () => {
    const covered = nowPlaying(title('Morning Hymn'));
    elsewhere.down();
    const np = await covered;
    expect(np.is_live).toBe(false);
    const rotation = await heard(np.stream_clock + 1, np.stream_clock + 3, 880);
    expect(
      misses(rotation.all, (level, i) => level > -45 && rotation.band[i]! < level - 10),
    ).toBeLessThanOrEqual(1);
    // Still asked for, with a growing wait: told once.
    const asked = elsewhere.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(elsewhere.requests.length).toBeGreaterThan(asked);
    expect(events).toEqual([
      {
        type: 'source_failed',
        source: `the station elsewhere (${elsewhere.origin}/psalm)`,
        reason: expect.stringMatching(/its stream broke off|it ended its stream|HTTP 503/),
      },
    ]);

    elsewhere.up();
    const back = await nowPlaying(title('Psalm 23'));
    expect(back.is_live).toBe(true);
    expect(events.at(-1)).toEqual({
      type: 'dead_air_ended',
      source: 'external',
      name: `${elsewhere.origin}/psalm`,
    });
    const again = await heard(back.current_track.started_at + 0.3, back.current_track.started_at + 2, 880);
    expect(misses(again.all, (level, i) => again.band[i]! > level - 3)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('relays an AAC stream the same way, levelled with the rest and under the ceiling', async () => {
    const relayed = nowPlaying(title('Sunday Sermon'));
    await engine.relay(station('/sermon'));
    const np = await relayed;
    expect(np.current_track.artist).toBe('Pastor John');
    // The stream it replaced is hung up.
    await waitFor('one stream listened to', () => (elsewhere.listening === 1 ? true : undefined));
    const from = np.current_track.started_at;
    const sermon = await heard(from + 0.3, from + 3, 1320);
    expect(misses(sermon.all, (level, i) => sermon.band[i]! > level - 3)).toBeLessThanOrEqual(1);
    // Sent 27 dB louder than the psalm: brought down at once, under the −1 dBTP ceiling, and once the leveller
    // has measured it (3 s), on air within 3 dB of the psalm (10 dB apart with the compressor alone).
    expect(sermon.rms).toBeLessThan(-6 - 3);
    expect(Math.abs(sermon.rms - psalm.rms)).toBeLessThan(12);
    expect(sermon.peak).toBeLessThan(10 ** (-1 / 20));
    const settled = await heard(from + 3.5, from + 6, 1320);
    expect(Math.abs(settled.rms - psalm.rms)).toBeLessThan(3);
    expect(settled.peak).toBeLessThan(10 ** (-1 / 20));
    // Its title follows its status.
    elsewhere.setTitle('/sermon', 'Pastor John - Evening Prayer');
    await nowPlaying(title('Evening Prayer'));
  }, 40_000);

  it('gives dead air to the AutoDJ until it has sound again', async () => {
    await engine.relay(station('/pauses'));
    await nowPlaying(title('Vespers'));
    const covered = await nowPlaying(title('Morning Hymn'), 15_000);
    expect(events).toContainEqual({
      type: 'dead_air',
      source: 'external',
      seconds: 3,
      title: `${elsewhere.origin}/pauses`,
    });
    const rotation = await heard(covered.stream_clock + 0.5, covered.stream_clock + 2, 880);
    expect(misses(rotation.all, (level) => level > -45)).toBeLessThanOrEqual(1);
    await nowPlaying(title('Vespers'), 15_000);
    expect(events.at(-1)).toMatchObject({ type: 'dead_air_ended', source: 'external' });
  }, 60_000);

  it('never opens what a playlist lists: the AutoDJ plays on, staff told once', async () => {
    const asked = elsewhere.requests.length;
    await engine.relay(station('/playlist'));
    await waitFor('three tries', () => (elsewhere.requests.slice(asked).length >= 3 ? true : undefined));
    expect(new Set(elsewhere.requests.slice(asked))).toEqual(new Set(['/playlist']));
    expect(engine.nowPlaying()).toMatchObject({ is_live: false, current_track: { title: 'Morning Hymn' } });
    expect(events).toEqual([expect.objectContaining({ type: 'source_failed' })]);
  }, 30_000);

  it('plays the AutoDJ again, hung up, when it is no longer relayed', async () => {
    const rotation = nowPlaying(title('Morning Hymn'));
    await engine.relay(null);
    await rotation;
    await waitFor('the stream hung up', () => (elsewhere.listening === 0 ? true : undefined));
    expect(engine.nowPlaying().is_live).toBe(false);
  });
});
