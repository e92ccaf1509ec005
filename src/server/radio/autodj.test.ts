import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { AutoDj, type AutoDjTrack, type ClockMap, type Cue, type Mixing } from './autodj.js';
import { LibraryProgramming, type Airing, type PlayOrder, type Programming } from './programming.js';
import { mediaFolderProvider, type LibraryItem, type LibraryProvider } from './library.js';
import { CHANNELS, FRAME_SAMPLES, FRAME_SECONDS, SAMPLE_RATE } from './pcm.js';
import { makeMp3, tempAudioDir } from './test-audio.js';

let dir: string;
let media: string;
let empty: string;
let fallback: string;

beforeAll(async () => {
  dir = await tempAudioDir();
  media = join(dir, 'media');
  empty = join(dir, 'empty');
  await mkdir(media);
  await mkdir(empty);
  await makeMp3(join(media, 'Choir - Morning Hymn.mp3'), { seconds: 2 });
  await makeMp3(join(media, 'b.mp3'), {
    seconds: 1,
    extra: ['-metadata', 'title=Psalm 23', '-metadata', 'artist=Pastor John'],
  });
  await writeFile(join(media, 'notes.txt'), 'not audio');
  const vtt = (text: string) =>
    `WEBVTT\n\n1\n00:00:00.500 --> 00:00:01.200\n${text}\n\n00:00:01.300 --> 00:00:01.900\n<i>Second</i> line\n`;
  await writeFile(join(media, 'Choir - Morning Hymn.en.vtt'), vtt('Good morning'));
  await writeFile(join(media, 'Choir - Morning Hymn.es.vtt'), vtt('Buenos días'));
  fallback = await makeMp3(join(dir, 'fallback.mp3'), {
    seconds: 1,
    extra: ['-metadata', 'title=Test Transmission'],
  });
}, 30_000);

/** How much faster than real time the tests pull audio (the engine pulls in real time). */
const SPEED = 10;

function dj(
  providers: LibraryProvider[],
  options: {
    order?: PlayOrder;
    mixing?: Partial<Mixing>;
    programming?: Programming;
    clock?: ClockMap;
    fallback?: string;
  } = {},
) {
  const tracks: AutoDjTrack[] = [];
  const cues: Cue[] = [];
  const library = new LibraryProgramming(providers, options.order);
  /** Items prepared: each asks for the mixing settings once. */
  let prepared = 0;
  const autodj = new AutoDj({
    programming: options.programming ?? library,
    fallback: { path: options.fallback ?? fallback },
    mixing: async () => {
      prepared++;
      return { loudnessTargetLufs: -16, crossfadeSeconds: 0, ...options.mixing };
    },
    stationName: () => 'Grace Live Radio',
    onTrack: (t) => tracks.push(t),
    onCue: (c) => cues.push(c),
    clock: options.clock,
  });
  let clock = 0;
  /** Left channel of everything played. */
  const heard: number[] = [];
  /**
   * Plays `seconds` of audio a frame at a time, as the engine's tick pulls it but SPEED times faster than real
   * time; it waits for each item's first audio, which real time would have given it.
   */
  const play = async (seconds: number) => {
    const end = clock + seconds - 1e-9;
    const out = new Float32Array(FRAME_SAMPLES * CHANNELS);
    while (clock < end) {
      await autodj.prepare();
      while (!autodj.ready) await sleep(5);
      out.fill(0);
      autodj.read(out, 0, FRAME_SAMPLES, clock);
      for (let i = 0; i < FRAME_SAMPLES; i++) heard.push(out[i * CHANNELS]!);
      clock += FRAME_SECONDS;
      await sleep((FRAME_SECONDS * 1000) / SPEED);
    }
  };
  /** The stream goes on `seconds` without the AutoDJ (a live source has the air), in real time: ticks check it. */
  const pause = async (seconds: number) => {
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      autodj.check(performance.now());
      await sleep(50);
    }
    clock += seconds;
  };
  return {
    autodj,
    library,
    tracks,
    cues,
    play,
    pause,
    heard,
    clock: () => clock,
    prepared: () => prepared,
  };
}

/** RMS of the samples from `from` to `to` seconds. */
function rms(samples: number[], from: number, to: number): number {
  let sum = 0;
  const a = Math.round(from * SAMPLE_RATE);
  const b = Math.min(samples.length, Math.round(to * SAMPLE_RATE));
  for (let i = a; i < b; i++) sum += samples[i]! ** 2;
  return Math.sqrt(sum / Math.max(1, b - a));
}

const dB = (ratio: number) => 20 * Math.log10(ratio);

/** Amplitude of one frequency from `from` to `to` seconds (Goertzel), as a sine's peak. */
function toneLevel(samples: number[], frequency: number, from: number, to: number): number {
  const a = Math.round(from * SAMPLE_RATE);
  const b = Math.round(to * SAMPLE_RATE);
  const w = (2 * Math.PI * frequency) / SAMPLE_RATE;
  let re = 0;
  let im = 0;
  for (let i = a; i < b; i++) {
    re += samples[i]! * Math.cos(w * i);
    im += samples[i]! * Math.sin(w * i);
  }
  return (2 * Math.hypot(re, im)) / (b - a);
}

const items =
  (...list: LibraryItem[]): LibraryProvider =>
  async () =>
    list;

describe('AutoDJ', () => {
  it('plays the library in order as decoded audio, titles from ID3 tags or the file name, back to the start', async () => {
    const { autodj, tracks, play, heard } = dj([mediaFolderProvider(media)]);
    await autodj.prepare();
    await play(7.5);
    // By file name: b.mp3, then 'Choir - Morning Hymn.mp3'.
    expect(tracks.map((t) => `${t.artist} - ${t.title}`).slice(0, 4)).toEqual([
      'Pastor John - Psalm 23',
      'Choir - Morning Hymn',
      'Pastor John - Psalm 23',
      'Choir - Morning Hymn',
    ]);
    // Each track starts where the previous one's audio ended on the stream clock.
    expect(tracks[0]!.startedAt).toBe(0);
    expect(tracks[1]!.startedAt).toBeCloseTo(1, 2);
    expect(tracks[2]!.startedAt).toBeCloseTo(3, 2);
    // The files' tone throughout, unlevelled (they have no measured loudness): nothing missing, nothing added.
    const level = rms(heard, 0.1, 0.9);
    expect(level).toBeGreaterThan(0.05);
    for (let at = 0; at < 7.45; at += 0.05) expect(dB(rms(heard, at, at + 0.05) / level)).toBeCloseTo(0, 0);
    autodj.stop();
  });

  it('emits the subtitles beside a file as it plays, on the stream clock', async () => {
    const { autodj, tracks, cues, play, clock } = dj([mediaFolderProvider(media)]);
    await autodj.prepare();
    while (tracks.at(-1)?.title !== 'Morning Hymn') await play(FRAME_SECONDS);
    const start = tracks.at(-1)!.startedAt;
    await play(start + 0.4 - clock());
    expect(cues).toEqual([]);
    await play(0.6);
    expect(cues.filter((c) => c.language === 'en').map((c) => c.text)).toEqual(['Good morning']);
    await play(1);
    const en = cues.filter((c) => c.language === 'en');
    expect(en.map((c) => c.text)).toEqual(['Good morning', 'Second line']);
    expect(en[0]!.streamClockStart).toBeCloseTo(start + 0.5, 5);
    expect(en[0]!.streamClockEnd).toBeCloseTo(start + 1.2, 5);
    expect(cues.filter((c) => c.language === 'es').map((c) => c.text)).toEqual([
      'Buenos días',
      'Second line',
    ]);
    autodj.stop();
  });

  it('falls back to the test transmission when the library is empty, and takes added sources', async () => {
    const { autodj, library, tracks, play } = dj([mediaFolderProvider(empty)]);
    await autodj.prepare();
    await play(0.5);
    expect(tracks[0]!.title).toBe('Test Transmission');
    library.addSource(
      items({
        path: join(media, 'b.mp3'),
        title: 'Sermon: Hope',
        artist: 'Pastor Ann',
        artworkUrl: '/uploads/hope.png',
      }),
    );
    await play(2.5);
    const sermon = tracks.find((t) => t.title === 'Sermon: Hope');
    expect(sermon).toMatchObject({ artist: 'Pastor Ann', artworkUrl: '/uploads/hope.png' });
    autodj.stop();
  });

  it('plays what is added to an empty library once the test transmission on air ends, not the test transmission again', async () => {
    const long = await makeMp3(join(dir, 'long-fallback.mp3'), {
      seconds: 6,
      extra: ['-metadata', 'title=Test Transmission'],
    });
    const { autodj, library, tracks, play, prepared } = dj([mediaFolderProvider(empty)], { fallback: long });
    await autodj.prepare();
    await play(0.5);
    // While nothing is added, asking the schedule again leaves the waiting test transmission as it is.
    const before = prepared();
    for (let second = 1; second <= 3; second++) autodj.check(performance.now() + second * 1000);
    await sleep(100);
    expect(prepared()).toBe(before);
    library.addSource(items({ path: join(media, 'b.mp3'), title: 'Sermon: Hope' }));
    // The schedule is asked again (every second of real time) while the test transmission plays.
    autodj.check(performance.now() + 4000);
    await sleep(100);
    await play(6);
    expect(tracks.map((t) => t.title).slice(0, 2)).toEqual(['Test Transmission', 'Sermon: Hope']);
    expect(tracks[1]!.startedAt).toBeCloseTo(6, 1);
    autodj.stop();
  });

  it('shuffles without repeating a track before the others have played', async () => {
    const { autodj, tracks, play } = dj([mediaFolderProvider(media)], { order: 'shuffle' });
    await autodj.prepare();
    await play(9);
    const titles = tracks.map((t) => t.title);
    expect(titles.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < titles.length; i++) expect(titles[i]).not.toBe(titles[i - 1]);
    autodj.stop();
  });

  it('re-announces the track it resumes after a live source, placed where its start would have been', async () => {
    const { autodj, tracks, play } = dj([mediaFolderProvider(media)]);
    await autodj.prepare();
    await play(1.5);
    autodj.announce(100);
    const resumed = tracks.at(-1)!;
    expect(resumed.title).toBe('Morning Hymn');
    // Half a second into it (1.5 s played, after the 1 s of b.mp3).
    expect(resumed.startedAt).toBeGreaterThan(99.4);
    expect(resumed.startedAt).toBeLessThan(99.6);
    autodj.stop();
  });

  it("levels each item from its measured loudness to the station's target, and airs only what lies between its cue points", async () => {
    // Half a second of silence, a second of tone, half a second of silence.
    const padded = await makeMp3(join(dir, 'padded.mp3'), {
      seconds: 2,
      extra: ['-af', "volume='between(t,0.5,1.5)':eval=frame"],
    });
    const { autodj, tracks, play, heard } = dj(
      [
        items(
          { path: padded, title: 'Quiet', loudnessLufs: -26, cueIn: 0.5, cueOut: 1.5 },
          { path: join(media, 'b.mp3'), title: 'Loud', loudnessLufs: -10 },
        ),
      ],
      { mixing: { loudnessTargetLufs: -20 } },
    );
    await autodj.prepare();
    await play(2);
    expect(tracks.map((t) => t.title).slice(0, 2)).toEqual(['Quiet', 'Loud']);
    // The tone alone aired: the next item starts a second in.
    expect(tracks[1]!.startedAt).toBeGreaterThan(0.99);
    expect(tracks[1]!.startedAt).toBeLessThan(1.05);
    // The same tone, 6 dB up from −26 to −20 LUFS, then 10 dB down from −10: 16 dB apart.
    expect(dB(rms(heard, 0.05, 0.95) / rms(heard, 1.1, 1.9))).toBeCloseTo(16, 0);
    autodj.stop();
  });

  it('crossfades the next item in over the set time at equal power, announcing it as the fade starts', async () => {
    const low = await makeMp3(join(dir, 'low.mp3'), { seconds: 3, frequency: 440 });
    const high = await makeMp3(join(dir, 'high.mp3'), { seconds: 3, frequency: 1000 });
    const { autodj, tracks, play, heard } = dj(
      [items({ path: low, title: 'Low' }, { path: high, title: 'High' })],
      { mixing: { crossfadeSeconds: 1 } },
    );
    await autodj.prepare();
    await play(4.5);
    expect(tracks.map((t) => t.title).slice(0, 2)).toEqual(['Low', 'High']);
    // Low's last second is High's first.
    const fadeStart = tracks[1]!.startedAt;
    expect(fadeStart).toBeGreaterThan(1.95);
    expect(fadeStart).toBeLessThan(2.1);
    // Each tone relative to its level alone: Low before the fade, High after it.
    const lowTone = (from: number) => toneLevel(heard, 440, from, from + 0.1) / toneLevel(heard, 440, 1, 1.1);
    const highTone = (from: number) =>
      toneLevel(heard, 1000, from, from + 0.1) / toneLevel(heard, 1000, fadeStart + 1.2, fadeStart + 1.3);
    expect(highTone(1)).toBeLessThan(0.02);
    // In the middle of the fade both play, each at cos 45° = sin 45°.
    expect(lowTone(fadeStart + 0.45)).toBeCloseTo(Math.SQRT1_2, 1);
    expect(highTone(fadeStart + 0.45)).toBeCloseTo(Math.SQRT1_2, 1);
    expect(lowTone(fadeStart + 1.2)).toBeLessThan(0.02);
    // Equal power: the level holds through the fade, no dip and no gap.
    const level = rms(heard, 1, 1.1);
    for (let at = 0; at < 4.4; at += 0.1) expect(dB(rms(heard, at, at + 0.1) / level)).toBeCloseTo(0, 0);
    autodj.stop();
  });

  it("begins a programme's item on its set second, fading what plays out over the crossfade, and hears a change of schedule", async () => {
    const low = await makeMp3(join(dir, 'long-low.mp3'), { seconds: 6, frequency: 440 });
    const high = await makeMp3(join(dir, 'long-high.mp3'), { seconds: 6, frequency: 1000 });
    // A schedule with a programme starting on time at wall second 1.5 (the faked clock: second n is n × 1000 ms),
    // then moved to 2.5 while the fill plays.
    let programmeAt = 1500;
    const asked: number[] = [];
    const aired: string[] = [];
    const schedule: Programming = {
      async next(from): Promise<Airing> {
        asked.push(from);
        if (from >= programmeAt) return { item: { path: high, title: 'Programme', duration: 6 } };
        return { item: { path: low, title: 'Fill', duration: 6 }, endsBy: programmeAt };
      },
      async hardChangeBetween(from, to) {
        return programmeAt > from && programmeAt <= to ? programmeAt : null;
      },
      aired: (item) => void aired.push(item.title!),
    };
    const { autodj, tracks, play, heard } = dj([], {
      programming: schedule,
      mixing: { crossfadeSeconds: 0.5 },
    });
    await autodj.prepare();
    await play(0.5);
    programmeAt = 2500;
    // The schedule is asked again (every second of real time) while the fill plays.
    await sleep(1200);
    autodj.check(performance.now());
    await sleep(100);
    await play(3);
    expect(tracks.map((t) => t.title).slice(0, 2)).toEqual(['Fill', 'Programme']);
    expect(aired.slice(0, 2)).toEqual(['Fill', 'Programme']);
    // On its second exactly, at full level from its first frame; the fill fades out under it over 0.5 s.
    expect(tracks[1]!.startedAt).toBeCloseTo(2.5, 3);
    const high1 = (from: number) => toneLevel(heard, 1000, from, from + 0.1);
    const low1 = (from: number) => toneLevel(heard, 440, from, from + 0.1);
    expect(high1(2.35) / high1(3.2)).toBeLessThan(0.05);
    expect(high1(2.5) / high1(3.2)).toBeCloseTo(1, 1);
    expect(low1(2.55) / low1(1)).toBeGreaterThan(0.5);
    expect(low1(3.05) / low1(1)).toBeLessThan(0.05);
    autodj.stop();
  });

  it('prepares the programme due after a short item before that item airs, so its first sample is there on its second', async () => {
    const fill = await makeMp3(join(dir, 'short-fill.mp3'), { seconds: 1, frequency: 440 });
    const high = await makeMp3(join(dir, 'due-high.mp3'), { seconds: 3, frequency: 1000 });
    const programmeAt = 1600;
    /** Each answer of the schedule, with how many items had gone on the air when it was asked. */
    const asked: { from: number; aired: number }[] = [];
    let aired = 0;
    const schedule: Programming = {
      async next(from): Promise<Airing> {
        asked.push({ from, aired });
        if (from >= programmeAt) return { item: { path: high, title: 'Programme', duration: 3 } };
        // Cut by the programme's start only when it would play past it (as the planner says).
        return {
          item: { path: fill, title: 'Fill', duration: 1 },
          endsBy: from + 1000 > programmeAt ? programmeAt : null,
        };
      },
      async hardChangeBetween(from, to) {
        return programmeAt > from && programmeAt <= to ? programmeAt : null;
      },
      aired: () => void aired++,
    };
    const { autodj, tracks, play } = dj([], { programming: schedule });
    await autodj.prepare();
    await play(2.2);
    expect(tracks.map((t) => t.title).slice(0, 3)).toEqual(['Fill', 'Fill', 'Programme']);
    expect(tracks[2]!.startedAt).toBeCloseTo(1.6, 2);
    // The second fill plays 0.6 s before the programme: the programme was asked for while the first played.
    expect(asked.find((a) => a.from === programmeAt)?.aired).toBe(1);
    autodj.stop();
  });

  it('has the programme after a live one ready while the live one airs, and starts it on its second', async () => {
    const low = await makeMp3(join(dir, 'paused-low.mp3'), { seconds: 3, frequency: 440 });
    const high = await makeMp3(join(dir, 'paused-high.mp3'), { seconds: 3, frequency: 1000 });
    const programmeAt = 4500;
    const schedule: Programming = {
      async next(from): Promise<Airing> {
        if (from >= programmeAt) return { item: { path: high, title: 'Programme', duration: 3 } };
        return {
          item: { path: low, title: 'Fill', duration: 3 },
          endsBy: from + 3000 > programmeAt ? programmeAt : null,
        };
      },
      async hardChangeBetween(from, to) {
        return programmeAt > from && programmeAt <= to ? programmeAt : null;
      },
      aired: () => {},
    };
    const { autodj, tracks, play, pause } = dj([], { programming: schedule });
    await autodj.prepare();
    await play(1);
    // A live programme has the air from stream second 1 to 4: the fill, paused at its second 1 with 2 s left,
    // would have ended long before the programme where it stopped; resumed at 4, it runs past 4.5.
    await pause(3);
    autodj.announce(4);
    await play(1.5);
    expect(tracks.map((t) => t.title)).toEqual(['Fill', 'Fill', 'Programme']);
    expect(tracks[1]!.startedAt).toBeCloseTo(3, 1);
    expect(tracks[2]!.startedAt).toBeCloseTo(4.5, 2);
    autodj.stop();
  });

  it('ends a crossfade a live programme interrupts, and has the programme after the live one ready on its second', async () => {
    const low = await makeMp3(join(dir, 'cut-low.mp3'), { seconds: 6, frequency: 440 });
    const high = await makeMp3(join(dir, 'cut-high.mp3'), { seconds: 3, frequency: 1000 });
    // A live programme from stream second 1 to 4: the fill before it is cut at 1 for the fill under it, whose
    // crossfade has barely begun when the live source takes the air; the programme after it is due at 4.
    const liveAt = 1000;
    const programmeAt = 4000;
    const schedule: Programming = {
      async next(from): Promise<Airing> {
        if (from >= programmeAt) return { item: { path: high, title: 'Programme', duration: 3 } };
        if (from >= liveAt) return { item: { path: low, title: 'Under', duration: 6 }, endsBy: programmeAt };
        return { item: { path: low, title: 'Fill', duration: 6 }, endsBy: liveAt };
      },
      async hardChangeBetween(from, to) {
        return [liveAt, programmeAt].find((at) => at > from && at <= to) ?? null;
      },
      aired: () => {},
    };
    const { autodj, tracks, play, pause, clock } = dj([], {
      programming: schedule,
      mixing: { crossfadeSeconds: 0.5 },
    });
    await autodj.prepare();
    await play(1.01);
    expect(tracks.map((t) => t.title)).toEqual(['Fill', 'Under']);
    await pause(2.9);
    autodj.announce(clock());
    await play(0.5);
    expect(tracks.map((t) => t.title)).toEqual(['Fill', 'Under', 'Under', 'Programme']);
    expect(tracks[3]!.startedAt).toBeCloseTo(4, 2);
    autodj.stop();
  });

  it('begins a programme at once when the stream, set again after a stall, is past its time: it is not left late', async () => {
    const low = await makeMp3(join(dir, 'late-low.mp3'), { seconds: 6, frequency: 440 });
    const high = await makeMp3(join(dir, 'late-high.mp3'), { seconds: 6, frequency: 1000 });
    const programmeAt = 1500;
    const schedule: Programming = {
      async next(from): Promise<Airing> {
        if (from >= programmeAt) return { item: { path: high, title: 'Programme', duration: 6 } };
        return { item: { path: low, title: 'Fill', duration: 6 }, endsBy: programmeAt };
      },
      async hardChangeBetween(from, to) {
        return programmeAt > from && programmeAt <= to ? programmeAt : null;
      },
      aired: () => {},
    };
    // Stream-clock second n airs at wall second n, until the stream falls half a second behind.
    let behind = 0;
    const { autodj, tracks, play } = dj([], {
      programming: schedule,
      clock: { wallAt: (clock) => clock * 1000 + behind, clockAt: (wall) => (wall - behind) / 1000 },
    });
    await autodj.prepare();
    await play(1.2);
    behind = 500;
    // Stream second 1.2 now airs at wall second 1.7: the programme's time (wall 1.5) went by in the stall.
    autodj.check(performance.now());
    await sleep(100);
    await play(1);
    expect(tracks.map((t) => t.title).slice(0, 2)).toEqual(['Fill', 'Programme']);
    // It begins on the next second mixed, not on stream second 1.5 (wall 2.0, half a second late).
    expect(tracks[1]!.startedAt).toBeCloseTo(1.2, 1);
    autodj.stop();
  });
});
