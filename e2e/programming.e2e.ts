import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../src/server/radio/ffmpeg';
import { launchBrowser, openPage, visit } from './browser';
import { E2E_ADMIN, startStation, streamClock, type RunningStation } from './station';
import { clockIn, middayZone } from './midday';

const run = promisify(execFile);
const SHOTS = process.env.E2E_SCREENSHOTS ?? tmpdir();
const work = mkdtempSync(path.join(tmpdir(), 'programming-e2e-'));

const zone = middayZone();

const STATION = 'Grace Hour Radio';
const PLAYLIST = 'Morning Rotation';
const PROGRAMME = 'The Sunday Word';
/** Each a pure tone of its own pitch, so what is heard can be told apart in the recorded stream. */
const ROTATION = [
  { file: 'morning-light.mp3', title: 'Morning Light', artist: 'Grace Singers', hz: 440, seconds: 30 },
  { file: 'evening-calm.mp3', title: 'Evening Calm', artist: 'Hope Choir', hz: 550, seconds: 30 },
];
/** Longer than its one-minute slot: faded out at the slot's end. */
const RECORDING = {
  file: 'sunday-word.mp3',
  title: 'Sunday Word',
  artist: 'Pastor Ruth',
  hz: 330,
  seconds: 80,
};
type Tone = typeof RECORDING;

async function makeTone(tone: Tone) {
  const file = path.join(work, tone.file);
  await run(ffmpegPath(), [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=${tone.hz}:duration=${tone.seconds}:sample_rate=44100`],
    ...['-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k'],
    ...['-metadata', `title=${tone.title}`, '-metadata', `artist=${tone.artist}`, file],
  ]);
  return { name: tone.file, mimeType: 'audio/mpeg', buffer: readFileSync(file) };
}

let station: RunningStation;
let browser: Browser;
beforeAll(async () => {
  // No demo week: only what staff enter here is on the schedule.
  [station, browser] = await Promise.all([
    startStation({ STATION_TIMEZONE: zone, SEED_DEMO: 'false', STATION_NAME: STATION }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await station?.stop();
  rmSync(work, { recursive: true, force: true });
});

const toast = (page: Page, text: string) =>
  page
    .getByRole('region', { name: /Notifications/ })
    .getByText(text, { exact: true })
    .first();

/** Uploads through the Library tab and waits until each file is measured (it airs only then). */
async function upload(page: Page, tones: Tone[]) {
  await page.getByRole('tab', { name: 'Library' }).click();
  await page.getByLabel('Add audio files').setInputFiles(await Promise.all(tones.map(makeTone)));
  for (const { file } of tones) {
    await page
      .getByTestId('upload-row')
      .filter({ hasText: file })
      .getByText('Uploaded')
      .waitFor({ timeout: 30_000 });
    await page
      .getByTestId('media-row')
      .filter({ hasText: file })
      .getByText(/LUFS$/)
      .waitFor({ timeout: 60_000 });
  }
}

/** What plays fades out over the station's crossfade (2 s unless staff change it), and a bit. */
const CROSSFADE_TENTHS = 25;
const radioNow = async (url: string) =>
  (await (await fetch(`${url}/api/radio/current`)).json()) as {
    stream_clock: number;
    current_track: { title: string; started_at: number } | null;
  };
/** What the station says is on the air, and the stream second it began. */
const currentTrack = async (url: string) => (await radioNow(url)).current_track;

/**
 * Records the station's stream as a listener receives it, until `stop`: the MP3 audio as sent, and where it
 * lies on the stream clock, from the ICY metadata sent with it (each block names the stream second of the
 * audio that follows it). Also the wall time and stream second just before it was joined.
 */
async function recordStream(url: string) {
  const asked = Date.now();
  const clock = await streamClock(url);
  const before = { wall: (asked + Date.now()) / 2, clock };
  const controller = new AbortController();
  const response = await fetch(`${url}/stream`, {
    headers: { 'Icy-MetaData': '1' },
    signal: controller.signal,
  });
  const metaint = Number(response.headers.get('icy-metaint'));
  const bytesPerSecond = (Number(response.headers.get('icy-br')) * 1000) / 8;
  const reader = response.body!.getReader();
  const audio: Buffer[] = [];
  let audioBytes = 0;
  let untilMeta = metaint;
  let pending = Buffer.alloc(0);
  /** The first stream second named, and how many bytes of audio came before it. */
  let mark: { bytes: number; clock: number } | undefined;
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      pending = Buffer.concat([pending, value]);
      while (pending.length) {
        if (untilMeta > 0) {
          const take = Math.min(untilMeta, pending.length);
          audio.push(pending.subarray(0, take));
          [audioBytes, untilMeta, pending] = [audioBytes + take, untilMeta - take, pending.subarray(take)];
          continue;
        }
        const length = 1 + pending[0]! * 16;
        if (pending.length < length) break;
        const clock = /StreamClock='([\d.]+)'/.exec(pending.subarray(1, length).toString('utf8'));
        if (clock && !mark) mark = { bytes: audioBytes, clock: Number(clock[1]) };
        [untilMeta, pending] = [metaint, pending.subarray(length)];
      }
    }
  })().catch(() => undefined); // ended by `stop`
  return {
    before,
    async stop(file: string) {
      controller.abort();
      await reading;
      writeFileSync(file, Buffer.concat(audio));
      // The stream second of a time in the file (the metadata names the start of a 26 ms frame).
      const { bytes, clock } = mark!;
      return (seconds: number) => clock + 0.013 + seconds - bytes / bytesPerSecond;
    },
  };
}

/** The silences of 50 ms or more under −50 dBFS in an audio file, as ffmpeg's silencedetect finds them. */
async function silences(file: string): Promise<{ from: number; to: number }[]> {
  const { stderr } = await run(ffmpegPath(), [
    ...['-nostats', '-i', file, '-af', 'silencedetect=noise=-50dB:d=0.05', '-f', 'null', '-'],
  ]);
  const ends = [...stderr.matchAll(/silence_end: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  return [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m, i) => ({
    from: Number(m[1]),
    to: ends[i] ?? Infinity,
  }));
}

const RATE = 8000;
const TENTH = RATE / 10;
const SILENT = 10 ** (-50 / 20);

/**
 * For each tenth of a second of an audio file, which of the tones sound in it at more than half their full
 * level (Goertzel power at each pitch), or null where it is silent.
 */
async function tonesIn(file: string, tones: Tone[]): Promise<(Set<string> | null)[]> {
  const { stdout } = await run(
    ffmpegPath(),
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'],
    { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
  );
  const samples = new Float32Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 4));
  const power = (start: number, hz: number) => {
    const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
    let [s1, s2] = [0, 0];
    for (let i = start; i < start + TENTH; i++) [s1, s2] = [samples[i]! + k * s1 - s2, s1];
    return s1 * s1 + s2 * s2 - k * s1 * s2;
  };
  const tenths: { silent: boolean; powers: number[] }[] = [];
  for (let start = 0; start + TENTH <= samples.length; start += TENTH) {
    let sum = 0;
    for (let i = start; i < start + TENTH; i++) sum += samples[i]! ** 2;
    tenths.push({
      silent: Math.sqrt(sum / TENTH) < SILENT,
      powers: tones.map((tone) => power(start, tone.hz)),
    });
  }
  const full = tones.map((_, i) => Math.max(...tenths.map((t) => t.powers[i]!)));
  return tenths.map(({ silent, powers }) =>
    silent ? null : new Set(tones.filter((_, i) => powers[i]! > full[i]! / 4).map((tone) => tone.title)),
  );
}

const audioTime = (page: Page) =>
  page.evaluate(
    () => document.querySelector<HTMLAudioElement>('audio[data-station-player]')?.currentTime ?? -1,
  );
/** Waits until the listener's audio time moves on by a second (it is playing). */
async function expectAudioAdvancing(page: Page) {
  const from = await audioTime(page);
  await expect.poll(() => audioTime(page), { timeout: 20_000 }).toBeGreaterThan(from + 1);
}
const until = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe('the schedule deciding what airs, in Chromium', () => {
  it('staff make a playlist and a programme that airs a recording at the next minute, seen in the 24-hour view; a listener hears it on the minute, the home page shows it LIVE, and the rotation comes back after it with no gap', async () => {
    const { page, context, problems } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(page, `${station.url}/dashboard-mgmt`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    // The songs first: while they are the whole library they are what plays.
    await upload(page, ROTATION);

    // A playlist of the two songs, in the default rotation, with no repeat rules for so small a list.
    await page.getByRole('tab', { name: 'Playlists' }).click();
    await page.getByLabel('New playlist').fill(PLAYLIST);
    await page.getByRole('button', { name: 'Create playlist' }).click();
    await toast(page, 'Playlist created').waitFor();
    const settings = page.getByRole('form', { name: `Settings of ${PLAYLIST}` });
    await settings.getByRole('switch', { name: /In the default rotation/ }).click();
    await settings.getByLabel('No repeat of a title within (minutes)').fill('0');
    await settings.getByLabel('No repeat of an artist within (minutes)').fill('0');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Playlist saved').waitFor();
    for (const { title } of ROTATION) {
      await page.getByRole('button', { name: `Add ${title} to ${PLAYLIST}` }).click();
      await page
        .getByRole('list', { name: `Items of ${PLAYLIST}` })
        .getByText(title, { exact: true })
        .waitFor();
    }
    const row = page.getByTestId('playlist-row').filter({ hasText: PLAYLIST });
    await row.getByText('In rotation · weight 1').waitFor();
    await row.getByText(/^2 items ·/).waitFor();
    // The whole tab in one tall view (a full-page capture would draw the sticky header mid-page).
    await page.setViewportSize({ width: 1280, height: 1800 });
    await page.screenshot({ path: `${SHOTS}/programming-playlist.png` });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The programme's recording: in the library, not in the rotation.
    await upload(page, [RECORDING]);

    // A listener tunes in.
    const listener = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await visit(listener.page, station.url);
    await listener.page.getByRole('button', { name: 'Turn On' }).click();
    await listener.page.getByRole('button', { name: 'Turn Off' }).waitFor({ timeout: 15_000 });
    const nowPlaying = listener.page.getByTestId('now-playing');
    const heard = async () => (await nowPlaying.textContent().catch(() => null)) ?? '';
    const rotationTitle = new RegExp(`^(${ROTATION.map((t) => t.title).join('|')}) — `);
    const recordingTitle = `${RECORDING.title} — ${RECORDING.artist}`;
    // They hear the rotation (once the test transmission the station played while its library was empty ends).
    await expect.poll(heard, { timeout: 60_000 }).toMatch(rotationTitle);

    // The programme, weekly on today (the form's day), at the next whole minute that leaves time to save it.
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await page.getByText(`Times are in the station's time zone (${zone})`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Add programme', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add programme' });
    await form.getByLabel('Title').fill(PROGRAMME);
    await form.getByLabel('Speaker (optional)').fill(RECORDING.artist);
    await form.getByLabel('Duration (minutes)').fill('1');
    await form.getByLabel('Plays').selectOption({ label: 'A recording from the library' });
    await form.getByLabel('Search the library').fill(RECORDING.title);
    const recording = form.getByLabel('Recording', { exact: true });
    const option = recording.locator('option', { hasText: RECORDING.title });
    await recording.selectOption((await option.getAttribute('value'))!);
    await form.getByLabel('On time (fade what is playing)').check();
    await form.getByLabel('Fade at the end').check();
    const start = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
    const end = start + 60_000;
    const [from, to] = [clockIn(zone, start), clockIn(zone, end)];
    await form.getByLabel('Start time').fill(from);
    await form.getByText('Then play').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/programming-form.png` });
    await form.getByRole('button', { name: 'Add programme' }).click();
    await toast(page, 'Programme added').waitFor();
    const saved = { wall: Date.now(), clock: await streamClock(station.url) };
    expect(start - saved.wall, 'ms to spare before the programme starts').toBeGreaterThan(10_000);

    // The 24-hour view: the recording at the programme's minute, nothing flagged.
    const slot = page.getByRole('list', { name: `${PROGRAMME}, ${from}–${to}` });
    await slot.waitFor();
    expect(await slot.getByTestId('upcoming-entry').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^${from}–${to}\\s*${RECORDING.title}\\s*${RECORDING.artist}$`)),
    ]);
    expect(await page.getByRole('region', { name: 'Problems ahead' }).count()).toBe(0);
    await slot.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/programming-24h.png` });

    const programmes = listener.page.locator('#programs');

    // The stream is recorded from a few seconds before the programme to a few seconds after it.
    await until(start - 8_000);
    const recorder = await recordStream(station.url);

    // On the minute the listener hears the recording: the title changes and the audio plays on.
    await until(start);
    await expect.poll(heard, { timeout: 30_000, interval: 200 }).toBe(recordingTitle);
    const titleHeardAfter = Date.now() - start;
    await expectAudioAdvancing(listener.page);
    const onAir = (await currentTrack(station.url))!;
    expect(onAir.title).toBe(RECORDING.title);
    // 'Today's Programs' is read again every 30 s: it shows the programme on the air within the minute.
    await programmes.scrollIntoViewIfNeeded();
    await programmes.getByText(`On air: ${PROGRAMME}`).waitFor({ timeout: end - Date.now() - 2_000 });
    expect(await programmes.getByText('Upcoming programs will appear here').count()).toBe(1);
    const today = (await (await fetch(`${station.url}/api/programs/today`)).json()) as {
      title: string;
      status: string;
    }[];
    expect(today.map((p) => [p.title, p.status])).toEqual([[PROGRAMME, 'LIVE']]);
    await listener.page.getByRole('region', { name: 'Live player' }).scrollIntoViewIfNeeded();
    await listener.page.screenshot({ path: `${SHOTS}/programming-live.png` });
    await expectAudioAdvancing(listener.page);
    expect(await heard()).toBe(recordingTitle);

    // After it the rotation resumes; the stream is recorded on for a few seconds of it.
    await until(end);
    await expect.poll(heard, { timeout: 30_000, interval: 200 }).toMatch(rotationTitle);
    const resumed = (await currentTrack(station.url))!;
    expect(ROTATION.map((t) => t.title)).toContain(resumed.title);
    await expect
      .poll(() => streamClock(station.url), { timeout: 20_000 })
      .toBeGreaterThan(resumed.started_at + 5);
    const recorded = path.join(work, 'stream.mp3');
    const clockOf = await recorder.stop(recorded);
    // On a loaded machine the station may fall behind the wall clock (it then carries on from where it was):
    // by this much since the programme was saved.
    const behind = Math.max(
      0,
      (Date.now() - saved.wall) / 1000 - ((await streamClock(station.url)) - saved.clock),
    );
    await expectAudioAdvancing(listener.page);

    // What was broadcast: the rotation, then the recording's tone for its minute, then the rotation again,
    // each coming in at full level on the stream second the station announced it …
    const tones = await tonesIn(recorded, [...ROTATION, RECORDING]);
    const rotationIn = (tenth: Set<string> | null) => ROTATION.some((t) => tenth?.has(t.title));
    const onset = tones.findIndex((tenth) => tenth?.has(RECORDING.title));
    const offset = tones.findIndex((tenth, i) => i > onset + CROSSFADE_TENTHS && rotationIn(tenth));
    const clockAt = (tenth: number) => clockOf(tenth / 10);
    const onsetWall = recorder.before.wall + (clockAt(onset) - recorder.before.clock) * 1000;
    const gaps = await silences(recorded);
    console.info(
      `The recording's tone from stream second ${clockAt(onset).toFixed(2)} to ${clockAt(offset).toFixed(2)} ` +
        `(announced ${onAir.started_at} and ${resumed.started_at}), ${onsetWall - start} ms after the minute; ` +
        `the station fell ${behind.toFixed(1)} s behind the wall clock; the listener saw the title ` +
        `${titleHeardAfter} ms after the minute; silences: ${JSON.stringify(gaps)}`,
    );
    expect(tones.slice(0, onset).filter(rotationIn).length / 10).toBeGreaterThan(5);
    expect(tones.slice(offset).filter(rotationIn).length / 10).toBeGreaterThan(3);
    expect(Math.abs(clockAt(onset) - onAir.started_at)).toBeLessThan(0.1);
    expect(Math.abs(clockAt(offset) - resumed.started_at)).toBeLessThan(0.1);
    // Between them the recording alone, once what played before it has faded out …
    const during = tones.slice(onset, offset);
    expect(during.every((tenth) => tenth === null || tenth.has(RECORDING.title))).toBe(true);
    expect(during.slice(CROSSFADE_TENTHS).some(rotationIn)).toBe(false);
    // … for one minute, on the minute, to within what a loaded machine made the station fall behind …
    expect(Math.abs(resumed.started_at - onAir.started_at - 60)).toBeLessThanOrEqual(0.05 + behind);
    expect(Math.abs(onsetWall - start) / 1000).toBeLessThanOrEqual(0.5 + behind);
    // … with no silence of 50 ms or more where one gave way to the other (the tones have none of their own).
    const near = (tenth: number) =>
      gaps.filter((gap) => gap.to > tenth / 10 - 3 && gap.from < tenth / 10 + 3);
    expect(near(onset)).toEqual([]);
    expect(near(offset)).toEqual([]);

    expect(problems).toEqual([]);
    expect(listener.problems).toEqual([]);
    await listener.context.close();
    await context.close();
  }, 300_000);
});
