import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowPlayingSchema, type NowPlaying } from '../../../common/radio.js';
import { FrameParser, type Mp3Frame } from '../../radio/mp3-frames.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
const PASSWORD = 'correct-horse';
const auth = (password: string) => `Basic ${Buffer.from(`source:${password}`).toString('base64')}`;

let t: TestApp;
let base: string;
let liveAudio: Buffer;

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  // The AutoDJ plays 128 kbps; the live source sends 96 kbps, so a listener can tell them apart.
  await makeMp3(join(dir, 'media', 'Choir - Morning Hymn.mp3'), { seconds: 3 });
  liveAudio = await readFile(
    await makeMp3(join(dir, 'live.mp3'), { seconds: 2, bitrate: '96k', frequency: 880 }),
  );
  t = await createTestApp({ DATA_DIR: dir, SOURCE_PASSWORD: PASSWORD });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
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
  it('takes a PUT source live at a frame boundary, then hands back to the AutoDJ without dropping the listener', async () => {
    const ear = listener();
    await ear.until((f) => f.length > 20);
    expect(ear.frames.every((f) => f.header.bitrateKbps === 128)).toBe(true);
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

    await ear.until((f) => f.some((frame) => frame.header.bitrateKbps === 96));
    const backToAutoDj = nowPlayingWhere((np) => !np.is_live);
    req.end();
    const after = await backToAutoDj;
    expect(after.current_track.title).toBe('Morning Hymn');
    clocks.push(after.stream_clock);
    const seen = ear.frames.length;
    await ear.until(
      (f) => f.length > seen + 20 && f.slice(seen).some((frame) => frame.header.bitrateKbps === 128),
    );
    expect(ear.closed).toBe(false);

    // What the listener heard: AutoDJ, the whole live source, AutoDJ again.
    const rates = ear.frames.map((f) => f.header.bitrateKbps);
    const firstLive = rates.indexOf(96);
    const lastLive = rates.lastIndexOf(96);
    expect(rates.slice(0, firstLive).every((r) => r === 128)).toBe(true);
    expect(rates.slice(firstLive, lastLive + 1).every((r) => r === 96)).toBe(true);
    const sent = new FrameParser();
    const sentFrames = [...sent.push(liveAudio), ...sent.end()];
    expect(Buffer.concat(ear.frames.slice(firstLive, lastLive + 1).map((f) => f.data))).toEqual(
      Buffer.concat(sentFrames.map((f) => f.data)),
    );
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
