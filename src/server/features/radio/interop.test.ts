import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NowPlaying } from '../../../common/radio.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';

/** Real processes on a real port: ffmpeg as an Icecast encoder and as a listener decoding /stream. */
const PASSWORD = 'interop-source-pw';
let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  await makeMp3(join(dir, 'media', 'tone.mp3'), { seconds: 3 });
  t = await createTestApp({ DATA_DIR: dir, SOURCE_PASSWORD: PASSWORD });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function ffmpeg(args: string[]) {
  const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', ...args]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  return { child, done };
}

describe('interop with ffmpeg', () => {
  it('an ffmpeg listener decodes /stream without errors across AutoDJ -> live icecast:// encoder -> AutoDJ', async () => {
    const changes: NowPlaying[] = [];
    const wentLive = new Promise<void>((resolve) =>
      t.app.nowPlaying.onChange((np) => {
        changes.push(np);
        if (np.is_live) resolve();
      }),
    );
    // The listener is connected (and hearing the AutoDJ) before the encoder goes live.
    const joined = async () => {
      while (t.app.radio.broadcaster.listenerCount === 0)
        await new Promise((resolve) => setTimeout(resolve, 20));
    };

    // 12 s of audio: a 4 s burst, then about 8 s in real time, long enough for the whole switch.
    const listener = ffmpeg(['-i', `http://127.0.0.1:${port}/stream`, '-t', '12', '-f', 'null', '-']);
    await joined();
    const encoder = ffmpeg([
      '-re',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=880:duration=2.5',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      '-content_type',
      'audio/mpeg',
      '-f',
      'mp3',
      `icecast://source:${PASSWORD}@127.0.0.1:${port}/stream`,
    ]);
    await wentLive;
    expect(await encoder.done).toEqual({ code: 0, stderr: '' });

    const heard = await listener.done;
    expect(heard.stderr).toBe('');
    expect(heard.code).toBe(0);
    // The listener was there for the whole switch: live on, then back to the AutoDJ.
    const liveAt = changes.findIndex((np) => np.is_live);
    expect(changes.slice(liveAt).some((np) => !np.is_live)).toBe(true);
  }, 40_000);

  it('refuses an ffmpeg encoder with the wrong password', async () => {
    const encoder = ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=duration=1',
      '-c:a',
      'libmp3lame',
      '-content_type',
      'audio/mpeg',
      '-f',
      'mp3',
      `icecast://source:wrong@127.0.0.1:${port}/stream`,
    ]);
    const result = await encoder.done;
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/401/);
  }, 20_000);
});
