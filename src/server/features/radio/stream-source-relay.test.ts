import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../../radio/ffmpeg.js';
import { decodeMono, makeAudio, makeTone, tempAudioDir, windowLevels } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { waitFor } from '../../test/icecast-server.js';
import { settledLibrary } from '../../test/library.js';
import { addStaff } from '../../test/staff.js';
import { startStationElsewhere, type StationElsewhere } from '../../test/station-elsewhere.js';

/**
 * The Station tab's station elsewhere, relayed: a local server sends an MP3 and an AAC stream in real time
 * with an Icecast status, and ffmpeg listens to our /stream as a player does. The AutoDJ plays low rumbling
 * noise, the station elsewhere tones, so what a listener hears tells them apart whatever the encoding.
 */

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Awaited<ReturnType<typeof addStaff>>;
let elsewhere: StationElsewhere;
let base: string;

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  await makeAudio(join(dir, 'media', 'Choir - Morning Hymn.mp3'), 'anoisesrc=color=brown', { seconds: 20 });
  elsewhere = await startStationElsewhere();
  elsewhere.mount('/psalm', {
    file: await makeTone(join(dir, 'psalm.mp3'), { seconds: 8, frequency: 880, peakDbfs: -30 }),
    format: 'mp3',
    contentType: 'audio/mpeg',
    title: 'Choir - Psalm 23',
  });
  elsewhere.mount('/sermon', {
    file: await makeTone(join(dir, 'sermon.aac'), { seconds: 8, frequency: 1320, peakDbfs: -12 }),
    format: 'adts',
    contentType: 'audio/aac',
    title: 'Pastor John - Sunday Sermon',
  });
  t = await createTestApp({ DATA_DIR: dir });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  superuser = await addStaff(t.db, 'steward', 'superuser');
  await settledLibrary(t.app, (await addStaff(t.db, 'sexton', 'admin')).headers, 1);
  await t.app.nowPlaying.start();
}, 90_000);
afterAll(async () => {
  await t?.close();
  await elsewhere?.close();
});

const put = (body: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/admin/stream-source', headers: superuser.headers, payload: body });
const title = () => t.app.nowPlaying.nowPlaying().current_track.title;
const untilTitle = (expected: string) =>
  waitFor(`"${expected}" on air`, () => (title() === expected ? true : undefined), 30_000);

/**
 * ffmpeg as a player on /stream for `seconds` of audio: what it heard after the burst of recent audio a
 * listener gets on connecting, overall and around `frequency`, in 0.1 s windows.
 */
async function ffmpegHears(seconds: number, frequency: number) {
  const burst = 4.5;
  const bytes = await new Promise<Buffer>((resolve, reject) => {
    const proc = spawn(ffmpegPath(), [
      ...['-v', 'error', '-i', `${base}/stream`, '-t', String(burst + seconds)],
      ...['-c', 'copy', '-f', 'mp3', 'pipe:1'],
    ]);
    const chunks: Buffer[] = [];
    proc.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    proc.on('error', reject);
    proc.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`ffmpeg exited ${code}`)),
    );
  });
  const band = `bandpass=f=${frequency}:t=q:w=8,bandpass=f=${frequency}:t=q:w=8`;
  const skip = Math.round(burst * 10);
  const all = windowLevels(await decodeMono(bytes), 0.1).slice(skip);
  const tone = windowLevels(await decodeMono(bytes, band), 0.1).slice(skip);
  const rms = 10 * Math.log10(all.reduce((sum, level) => sum + 10 ** (level / 10), 0) / all.length);
  return { all, tone, rms };
}

/**
 * How many 0.1 s windows fail `check`. One is let pass: a moment's stall of a machine the whole suite shares
 * (the broadcast then carries a silent frame or two), not what these checks are about.
 */
const misses = (levels: number[], check: (level: number, i: number) => boolean) =>
  levels.filter((level, i) => !check(level, i)).length;

/** A player asking for ICY metadata, as players do: every StreamTitle it was sent, in order. */
function icyListener() {
  const titles: string[] = [];
  let closed = false;
  let text = '';
  const req = http.get(`${base}/stream`, { headers: { 'icy-metadata': '1' } }, (res) => {
    res.on('data', (chunk: Buffer) => {
      text = (text + chunk.toString('latin1')).slice(-40_000);
      for (const match of text.matchAll(/StreamTitle='([^']*)';/g)) {
        const heard = Buffer.from(match[1]!, 'latin1').toString('utf8');
        if (titles.at(-1) !== heard) titles.push(heard);
      }
      text = text.slice(text.lastIndexOf("StreamTitle='") + 1);
    });
    res.on('close', () => (closed = true));
  });
  req.on('error', () => {});
  return {
    titles,
    get closed() {
      return closed;
    },
    until: (expected: string) =>
      waitFor(`StreamTitle '${expected}'`, () => (titles.at(-1) === expected ? true : undefined), 30_000),
    close: () => req.destroy(),
  };
}

describe('a station elsewhere on the Station tab', () => {
  it('is relayed on our /stream: ffmpeg hears its MP3 tone levelled, its title in now playing and ICY; players get our address', async () => {
    await untilTitle('Morning Hymn');
    const res = await put({ streamSource: `icecast:${elsewhere.origin}/psalm`, allowPrivateNetwork: true });
    expect(res.statusCode).toBe(200);
    await untilTitle('Psalm 23');
    expect(t.app.nowPlaying.nowPlaying()).toMatchObject({
      current_track: { artist: 'Choir' },
      is_live: true,
    });
    const address = await (await fetch(`${base}/api/radio/stream-url`)).json();
    expect(address.streamUrl).toBe(`${base}/stream`);
    const stream = await fetch(`${base}/stream`, { method: 'HEAD', redirect: 'manual' });
    expect(stream.status).toBe(200);

    const player = icyListener();
    await player.until('Choir - Psalm 23');
    player.close();
    const heard = await ffmpegHears(2.5, 880);
    expect(misses(heard.all, (level, i) => heard.tone[i]! > level - 3)).toBeLessThanOrEqual(1);
    // Sent at −33 dBFS RMS: lifted by the live chain towards the station's target.
    expect(heard.rms).toBeGreaterThan(-28);
    expect(heard.rms).toBeLessThan(-10);
  }, 60_000);

  it('relays an AAC stream the same way', async () => {
    expect((await put({ streamSource: `url:${elsewhere.origin}/sermon` })).statusCode).toBe(200);
    // A url: station has no status of its own: the station's name is its title.
    await untilTitle('Grace Live Radio Live');
    expect((await put({ streamSource: `icecast:${elsewhere.origin}/sermon` })).statusCode).toBe(200);
    await untilTitle('Sunday Sermon');
    const heard = await ffmpegHears(2.5, 1320);
    expect(misses(heard.all, (level, i) => heard.tone[i]! > level - 3)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('is covered by the AutoDJ while it is off the air, the player staying connected, and back when it is', async () => {
    const player = icyListener();
    await player.until('Pastor John - Sunday Sermon');
    elsewhere.down();
    await untilTitle('Morning Hymn');
    await player.until('Choir - Morning Hymn');
    const covered = await ffmpegHears(2, 1320);
    expect(
      misses(covered.all, (level, i) => level > -45 && covered.tone[i]! < level - 10),
    ).toBeLessThanOrEqual(1);

    elsewhere.up();
    await untilTitle('Sunday Sermon');
    await player.until('Pastor John - Sunday Sermon');
    expect(player.closed).toBe(false);
    expect(player.titles).toEqual([
      'Pastor John - Sunday Sermon',
      'Choir - Morning Hymn',
      'Pastor John - Sunday Sermon',
    ]);
    player.close();
  }, 90_000);

  it('keeps what is relayed when staff give an address that cannot be used (400)', async () => {
    const res = await put({ streamSource: `url:${base}/stream` });
    expect(res.statusCode).toBe(400);
    expect(t.app.radio.relayed?.address).toBe(`${elsewhere.origin}/sermon`);
    expect((await put({ streamSource: 'ftp:ftp://radio.example/live' })).statusCode).toBe(400);
    expect((await put({ streamSource: null })).statusCode).toBe(200);
    await untilTitle('Morning Hymn');
    expect(t.app.nowPlaying.nowPlaying().is_live).toBe(false);
  }, 30_000);
});
