import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowPlayingSchema, type NowPlaying } from '../../../common/radio.js';
import { FrameParser, type Mp3Frame } from '../../radio/mp3-frames.js';
import { decodeMono, makeAudio, makeMp3, tempAudioDir, windowLevels } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { settledLibrary } from '../../test/library.js';
import { addStaff } from '../../test/staff.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
const PASSWORD = 'correct-horse';
const auth = (password: string) => `Basic ${Buffer.from(`source:${password}`).toString('base64')}`;

let t: TestApp;
let base: string;
let liveAudio: Buffer;
const LIVE_SECONDS = 2;

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  // The AutoDJ plays low rumbling noise and the live source an 880 Hz tone, so what a listener hears tells
  // them apart whatever the encoding.
  await makeAudio(join(dir, 'media', 'Choir - Morning Hymn.mp3'), 'anoisesrc=color=brown', { seconds: 3 });
  liveAudio = await readFile(
    await makeMp3(join(dir, 'live.mp3'), { seconds: LIVE_SECONDS, bitrate: '96k', frequency: 880 }),
  );
  t = await createTestApp({ DATA_DIR: dir, SOURCE_PASSWORD: PASSWORD });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // The media folder is imported into the library and measured at start; the AutoDJ then plays it.
  await settledLibrary(t.app, (await addStaff(t.db, 'sexton', 'admin')).headers, 1);
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A listener on /stream that cuts what it receives into frames. */
function listener() {
  const parser = new FrameParser();
  const frames: Mp3Frame[] = [];
  const waiters: (() => void)[] = [];
  let closed = false;
  const req = http.get(`${base}/stream`, (res) => {
    res.on('data', (chunk: Buffer) => {
      frames.push(...parser.push(chunk));
      for (const w of waiters.splice(0)) w();
    });
    res.on('close', () => (closed = true));
  });
  return {
    frames,
    get closed() {
      return closed;
    },
    close: () => req.destroy(),
    /** Waits until the frames received satisfy `check`. */
    async until(check: (frames: Mp3Frame[]) => boolean) {
      while (!check(frames)) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

async function current(): Promise<NowPlaying> {
  return nowPlayingSchema.parse(await (await fetch(`${base}/api/radio/current`)).json());
}

/** Waits for the next now-playing change that satisfies `check`. */
function nowPlayingWhere(check: (np: NowPlaying) => boolean) {
  return new Promise<NowPlaying>((resolve) => {
    const off = t.app.nowPlaying.onChange((np) => {
      if (check(np)) {
        off();
        resolve(np);
      }
    });
  });
}

/** A framed (chunked) PUT from an encoder; resolves with the response once headers arrive. */
function putSource(password: string) {
  const req = http.request(`${base}/stream`, {
    method: 'PUT',
    headers: { authorization: auth(password), 'content-type': 'audio/mpeg', 'ice-name': 'Evening Service' },
  });
  const response = new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
  req.on('error', () => {});
  req.flushHeaders();
  return { req, response };
}

/** An unframed source like ffmpeg's icecast:// (no Content-Length, no chunking), over a raw socket. */
function rawSource(method: 'PUT' | 'SOURCE', password: string) {
  const socket = net.connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `${method} /stream HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth(password)}\r\nContent-Type: audio/mpeg\r\nExpect: 100-continue\r\n\r\n`,
  );
  const reply = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n') && !/^HTTP\/1\.1 100 Continue\r\n\r\n$/.test(text)) resolve(text);
    });
    socket.on('close', () => resolve(text));
  });
  return { socket, reply };
}

describe('live input and AutoDJ on one stream', () => {
  it('takes a PUT source live, then hands back to the AutoDJ without dropping the listener', async () => {
    const ear = listener();
    await ear.until((f) => f.length > 20);
    const clocks: number[] = [(await current()).stream_clock];

    const wentLive = nowPlayingWhere((np) => np.is_live);
    const { req, response } = putSource(PASSWORD);
    expect((await response).statusCode).toBe(200);
    req.write(liveAudio);
    const live = await wentLive;
    expect(live.current_track.title).toBe('Evening Service');
    clocks.push(live.stream_clock);

    // Encoder metadata replaces the title.
    const titled = nowPlayingWhere((np) => np.current_track.title === 'Amazing Grace');
    const meta = await fetch(
      `${base}/admin/metadata?mount=/stream&mode=updinfo&song=${encodeURIComponent('Choir - Amazing Grace')}`,
      {
        headers: { authorization: auth(PASSWORD) },
      },
    );
    expect(meta.status).toBe(200);
    expect(await meta.text()).toContain('<return>1</return>');
    expect((await titled).current_track.artist).toBe('Choir');

    // A second source while one is live is refused, framed or not.
    const second = putSource(PASSWORD);
    expect((await second.response).statusCode).toBe(409);
    second.req.destroy();
    const raw = rawSource('SOURCE', PASSWORD);
    expect(await raw.reply).toMatch(/^HTTP\/1\.[01] 409/);

    // The encoder leaves while its audio still plays: all of it is heard, then the AutoDJ again.
    const backToAutoDj = nowPlayingWhere((np) => !np.is_live);
    req.end();
    const after = await backToAutoDj;
    expect(after.current_track.title).toBe('Morning Hymn');
    clocks.push(after.stream_clock);
    // Mixed half a second ahead of the broadcast: a second and a half more reaches the listener well past it.
    const seen = ear.frames.length;
    await ear.until((f) => f.length > seen + Math.ceil(1.5 / f[0]!.duration));
    expect(ear.closed).toBe(false);
    // One stream re-encoded from the mix: the live source's 96 kbps reached the listener at 128 like the rest.
    expect(ear.frames.every((f) => f.header.bitrateKbps === 128)).toBe(true);

    // What the listener heard, in 50 ms windows: the AutoDJ, the whole live tone, the AutoDJ again. The live
    // tone is (nearly) all the sound around 880 Hz; the AutoDJ's rumble has almost nothing there.
    const heard = Buffer.concat(ear.frames.map((f) => f.data));
    const all = windowLevels(await decodeMono(heard), 0.05);
    const tone = windowLevels(await decodeMono(heard, 'bandpass=f=880:t=q:w=8,bandpass=f=880:t=q:w=8'), 0.05);
    const onAir = all.flatMap((level, i) => (tone[i]! > level - 6 ? [i] : []));
    const [first, last] = [onAir[0]!, onAir.at(-1)!];
    expect(onAir.length).toBe(last - first + 1);
    expect((last - first + 1) * 0.05).toBeGreaterThan(LIVE_SECONDS - 0.2);
    expect((last - first + 1) * 0.05).toBeLessThan(LIVE_SECONDS + 0.2);
    // The AutoDJ around it, leaving a window either side for the switch; never silence.
    expect(all.length - last - 2).toBeGreaterThan(10);
    for (const i of all.keys()) {
      expect(all[i]).toBeGreaterThan(-45);
      if (i < first - 1 || i > last + 1) expect(tone[i]).toBeLessThan(all[i]! - 10);
    }
    clocks.push((await current()).stream_clock);
    for (let i = 1; i < clocks.length; i++) expect(clocks[i]!).toBeGreaterThanOrEqual(clocks[i - 1]!);
    ear.close();
  }, 30_000);

  it('refuses wrong credentials from an unframed encoder with 401, and lets the right one in with 100-continue', async () => {
    const wrong = rawSource('PUT', 'not-the-password');
    const answer = await wrong.reply;
    expect(answer).toMatch(/^HTTP\/1\.[01] 401/);
    expect(answer).toMatch(/WWW-Authenticate: Basic realm=/);
    expect(t.app.radio.live.busy).toBe(false);

    const right = rawSource('PUT', PASSWORD);
    const ok = await right.reply;
    expect(ok).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.[01] 200/);
    expect(t.app.radio.live.busy).toBe(true);
    const ended = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (!t.app.radio.live.busy) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    right.socket.end(liveAudio.subarray(0, 4000));
    await ended;
  });

  it('passes ordinary HTTP through untouched: split first bytes, keep-alive, and a PUT that only looks like a source', async () => {
    const socket = net.connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
    let text = '';
    const responses = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if ((text.match(/HTTP\/1\.1 200/g) ?? []).length >= n) resolve();
          else socket.once('data', check);
        };
        check();
      });
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('PU');
    await new Promise((resolve) => setImmediate(resolve));
    socket.write('T /streamx HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    socket.write('GET /api/radio/current HTTP/1.1\r\nHost: x\r\n\r\n');
    await responses(1);
    socket.write('GET /api/radio/stream-url HTTP/1.1\r\nHost: x\r\n\r\n');
    await responses(2);
    expect(text).toMatch(/^HTTP\/1\.1 404/);
    expect(text).toContain('"streamUrl":"http://x/stream"');
    socket.destroy();
  });
});
