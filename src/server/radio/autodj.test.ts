import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AutoDj, type AutoDjTrack, type Cue, type PlayOrder } from './autodj.js';
import { mediaFolderProvider } from './library.js';
import { makeMp3, tempAudioDir } from './test-audio.js';

let media: string;
let empty: string;
let fallback: string;

beforeAll(async () => {
  const dir = await tempAudioDir();
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

function dj(dirs: string[], order: PlayOrder = 'in_order') {
  const tracks: AutoDjTrack[] = [];
  const cues: Cue[] = [];
  const autodj = new AutoDj({
    providers: dirs.map(mediaFolderProvider),
    fallback: { path: fallback },
    order: async () => order,
    stationName: () => 'Grace Live Radio',
    onTrack: (t) => tracks.push(t),
    onCue: (c) => cues.push(c),
  });
  let clock = 0;
  /** Plays `seconds` of audio; the next file is ready in time, as with the real-time tick. */
  const play = async (seconds: number) => {
    const end = clock + seconds;
    while (clock < end) {
      await autodj.prepare();
      clock += autodj.nextFrame(clock).duration;
    }
  };
  return { autodj, tracks, cues, play, clock: () => clock };
}

describe('AutoDJ', () => {
  it('plays the library in order, titles from ID3 tags or the file name, back to the start', async () => {
    const { autodj, tracks, play } = dj([media]);
    await autodj.prepare();
    await play(7.5);
    // By file name: b.mp3, then 'Choir - Morning Hymn.mp3'.
    expect(tracks.map((t) => `${t.artist} - ${t.title}`).slice(0, 4)).toEqual([
      'Pastor John - Psalm 23',
      'Choir - Morning Hymn',
      'Pastor John - Psalm 23',
      'Choir - Morning Hymn',
    ]);
    // Each track starts where the previous one's frames ended on the stream clock.
    expect(tracks[0]!.startedAt).toBe(0);
    expect(tracks[1]!.startedAt).toBeGreaterThan(0.99);
    expect(tracks[1]!.startedAt).toBeLessThan(1.2);
    autodj.stop();
  });

  it('emits the subtitles beside a file as it plays, on the stream clock', async () => {
    const { autodj, tracks, cues, play, clock } = dj([media]);
    await autodj.prepare();
    while (tracks.at(-1)?.title !== 'Morning Hymn') await play(0.02);
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
    const { autodj, tracks, play } = dj([empty]);
    await autodj.prepare();
    await play(0.5);
    expect(tracks[0]!.title).toBe('Test Transmission');
    autodj.addSource(async () => [
      {
        path: join(media, 'b.mp3'),
        title: 'Sermon: Hope',
        artist: 'Pastor Ann',
        artworkUrl: '/uploads/hope.png',
      },
    ]);
    await play(2.5);
    const sermon = tracks.find((t) => t.title === 'Sermon: Hope');
    expect(sermon).toMatchObject({ artist: 'Pastor Ann', artworkUrl: '/uploads/hope.png' });
    autodj.stop();
  });

  it('shuffles without repeating a track before the others have played', async () => {
    const { autodj, tracks, play } = dj([media], 'shuffle');
    await autodj.prepare();
    await play(9);
    const titles = tracks.map((t) => t.title);
    expect(titles.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < titles.length; i++) expect(titles[i]).not.toBe(titles[i - 1]);
    autodj.stop();
  });

  it('re-announces the track it resumes after a live source, placed where its start would have been', async () => {
    const { autodj, tracks, play } = dj([media]);
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
});
