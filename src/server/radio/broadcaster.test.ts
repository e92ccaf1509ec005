import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IcecastMetadataReader } from 'icecast-metadata-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Broadcaster } from './broadcaster.js';
import { FrameParser, parseFrameHeader, type Mp3Frame } from './mp3-frames.js';
import { makeMp3, tempAudioDir } from './test-audio.js';

let frames: Mp3Frame[];
beforeAll(async () => {
  const file = await makeMp3(join(await tempAudioDir(), 'tone.mp3'), { seconds: 4 });
  const parser = new FrameParser();
  frames = [...parser.push(await readFile(file)), ...parser.end()];
}, 30_000);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A real socket server whose GET hands the response to the broadcaster, as the /stream route does. */
async function serve(broadcaster: Broadcaster) {
  const responses: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const icy = req.headers['icy-metadata'] === '1';
    res.useChunkedEncodingByDefault = false;
    res.writeHead(200, {
      'Content-Type': 'audio/mpeg',
      ...(icy ? { 'icy-metaint': broadcaster.metaint } : {}),
    });
    responses.push(res);
    broadcaster.addListener(res, { icy });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    broadcaster.closeAll();
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, responses };
}

function listen(url: string, headers: Record<string, string> = {}) {
  const chunks: Buffer[] = [];
  const waiters: (() => void)[] = [];
  let res!: http.IncomingMessage;
  const ready = new Promise<http.IncomingMessage>((resolve) => {
    const req = http.get(url, { headers }, (r) => {
      res = r;
      r.on('data', (c: Buffer) => {
        chunks.push(c);
        for (const w of waiters.splice(0)) w();
      });
      resolve(r);
    });
    cleanups.push(() => void req.destroy());
  });
  const size = () => chunks.reduce((s, c) => s + c.length, 0);
  return {
    ready,
    bytes: () => Buffer.concat(chunks),
    get res() {
      return res;
    },
    /** Resolves once at least `n` bytes arrived. */
    async atLeast(n: number) {
      while (size() < n) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

/** Pushes `seconds` of audio (looping the tone) and flushes every `tick` seconds of audio. */
function play(b: Broadcaster, seconds: number, tick = 0.2) {
  const end = b.clock + seconds;
  let sinceFlush = 0;
  let i = 0;
  while (b.clock < end) {
    const frame = frames[i++ % frames.length]!;
    b.push(frame);
    sinceFlush += frame.duration;
    if (sinceFlush >= tick) {
      b.flush();
      sinceFlush = 0;
    }
  }
  b.flush();
}

describe('Broadcaster', () => {
  it('gives a new listener a frame-aligned burst of at least 2 s, then live audio', async () => {
    const b = new Broadcaster({ burstSeconds: 3 });
    play(b, 10);
    const { url } = await serve(b);
    const listener = listen(url);
    await listener.ready;
    const burstBytes = Math.floor((3 * 128_000) / 8) - 1000;
    await listener.atLeast(burstBytes);
    const got = listener.bytes();
    expect(parseFrameHeader(got, 0)).not.toBeNull();
    // Every frame boundary lines up: walk the burst frame by frame.
    let pos = 0;
    let seconds = 0;
    while (pos < got.length) {
      const h = parseFrameHeader(got, pos)!;
      expect(h).not.toBeNull();
      pos += h.length;
      seconds += h.duration;
    }
    expect(seconds).toBeGreaterThanOrEqual(2);
    play(b, 1);
    await listener.atLeast(got.length + 15_000);
  });

  it('interleaves ICY metadata at exactly icy-metaint with StreamTitle and the stream clock, read by icecast-metadata-js', async () => {
    const b = new Broadcaster({ burstSeconds: 4, metaint: 16000 });
    b.setTitle("Choir - It's a Morning Hymn");
    play(b, 5);
    const { url } = await serve(b);
    const listener = listen(url, { 'Icy-MetaData': '1' });
    const res = await listener.ready;
    expect(res.headers['icy-metaint']).toBe('16000');
    play(b, 4, 0.15);
    b.setTitle('Pastor - Sermon');
    play(b, 4, 0.25);
    await listener.atLeast(11 * 16_000);
    const data = listener.bytes();

    // Our own walk: a length byte after every 16000 audio bytes, never anywhere else.
    let pos = 0;
    let blocks = 0;
    let metaBytes = 0;
    while (pos + 16000 < data.length) {
      pos += 16000;
      const length = data[pos]! * 16;
      expect(length).toBeGreaterThan(0);
      expect(data.toString('utf8', pos + 1, pos + 1 + length)).toMatch(
        /^StreamTitle='[^']*';StreamClock='\d+\.\d\d';\0*$/,
      );
      pos += 1 + length;
      metaBytes += 1 + length;
      blocks++;
    }
    expect(blocks).toBeGreaterThanOrEqual(5);

    // The independent parser agrees and sees both keys in every block.
    const metadata: { StreamTitle?: string; StreamClock?: string }[] = [];
    let audio = 0;
    const reader = new IcecastMetadataReader({ icyMetaInt: 16000, metadataTypes: ['icy'] });
    for (const item of reader.iterator(new Uint8Array(data))) {
      if (item.metadata) metadata.push(item.metadata);
      if (item.stream) audio += item.stream.length;
    }
    expect(metadata.length).toBe(blocks);
    expect(audio).toBe(data.length - metaBytes);
    expect(metadata.every((m) => m.StreamTitle && m.StreamClock)).toBe(true);
    expect(metadata[0]!.StreamTitle).toBe('Choir - It\u2019s a Morning Hymn');
    expect(metadata.at(-1)!.StreamTitle).toBe('Pastor - Sermon');
    const clocks = metadata.map((m) => Number(m.StreamClock));
    // 16000 bytes of 128 kbps audio is one second: the clock in consecutive blocks moves by about that.
    for (let i = 1; i < clocks.length; i++) expect(clocks[i]! - clocks[i - 1]!).toBeCloseTo(1, 1);
  });

  it('drops a listener that stops reading, keeping its backlog bounded, while others keep receiving', async () => {
    const maxBacklogBytes = 64 * 1024;
    const b = new Broadcaster({ maxBacklogBytes });
    play(b, 5);
    const { url, responses } = await serve(b);
    const stalled = listen(url);
    const healthy = listen(url);
    const stalledRes = await stalled.ready;
    await healthy.ready;
    stalledRes.pause();
    stalledRes.socket.pause();
    const serverSide = responses[0]!;
    let worst = 0;
    const closed = new Promise<void>((resolve) => serverSide.on('close', resolve));
    // Far more audio than any socket buffer holds; the healthy listener reads it all.
    for (let i = 0; i < 400 && !serverSide.destroyed; i++) {
      play(b, 1);
      worst = Math.max(worst, serverSide.writableLength);
      await healthy.atLeast(healthy.bytes().length); // let the event loop move bytes
      await new Promise((resolve) => setImmediate(resolve));
    }
    await closed;
    expect(serverSide.destroyed).toBe(true);
    // One tick's batch over the bound at most, never growing without end.
    expect(worst).toBeLessThan(maxBacklogBytes + 64 * 1024);
    expect(b.listenerCount).toBe(1);
    const before = healthy.bytes().length;
    play(b, 1);
    await healthy.atLeast(before + 15_000);
  });

  it('writes in pieces of minWriteBytes, but audio where a new title begins leaves at the flush it is in', async () => {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    const pushFor = (seconds: number) => {
      const end = b.clock + seconds;
      let bytes = 0;
      for (let i = 0; b.clock < end; i++) bytes += b.push(frames[i % frames.length]!).data.length;
      return bytes;
    };
    // A piece is 0.4 s of the tone's bitrate; a flush every 0.2 s of audio writes every other time.
    const bytesPerSecond =
      frames.reduce((sum, f) => sum + f.data.length, 0) / frames.reduce((sum, f) => sum + f.duration, 0);
    const b = new Broadcaster({ burstSeconds: 1, minWriteBytes: 0.4 * bytesPerSecond * 0.9 });
    play(b, 2);
    const { url } = await serve(b);
    const listener = listen(url);
    await listener.ready;
    const received = () => listener.bytes().length;
    /** What has arrived once nothing more comes for a moment (loopback, but the machine may be busy). */
    const stable = async () => {
      let last = -1;
      while (received() !== last) {
        last = received();
        await settle();
      }
      return last;
    };
    // A full piece leaves at once, and with it anything held before.
    pushFor(0.4);
    b.flush();
    await listener.atLeast(1);
    const burst = await stable();
    pushFor(0.2);
    b.flush();
    await settle();
    expect(received()).toBe(burst); // under a piece: held
    const piece = pushFor(0.2);
    b.flush();
    await listener.atLeast(burst + piece); // a full piece: written
    const before = await stable();
    // A programme starts in the next 0.2 s: set ahead, as the mix sets it before the broadcast reaches it.
    b.setTitle('Presenter - Morning Prayer', b.clock + 0.1);
    const withStart = pushFor(0.2);
    b.flush();
    await listener.atLeast(before + withStart);
    // The piece after it is held again until it is full.
    pushFor(0.2);
    b.flush();
    await settle();
    expect(received()).toBe(before + withStart);
  });

  it('keeps at least five minutes of frames by stream clock, and the clock only goes forward', () => {
    const b = new Broadcaster({ historySeconds: 300 });
    let last = -1;
    for (let i = 0; i < 420 / 0.026; i++) {
      b.push(frames[i % frames.length]!);
      expect(b.clock).toBeGreaterThan(last);
      last = b.clock;
    }
    const span = b.history.span()!;
    expect(span.to - span.from).toBeGreaterThanOrEqual(300);
    expect(span.to - span.from).toBeLessThan(302);
    const clip = b.history.between(b.clock - 30, b.clock - 10);
    const seconds = clip.reduce((s, f) => s + f.duration, 0);
    expect(seconds).toBeGreaterThan(19.9);
    expect(seconds).toBeLessThan(20.1);
    expect(clip[0]!.start).toBeLessThanOrEqual(b.clock - 30);
    expect(b.history.between(0, 10)).toEqual([]);
  });
});
