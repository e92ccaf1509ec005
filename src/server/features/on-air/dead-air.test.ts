import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENTS } from '../../../common/notifications.js';
import type { NowPlaying } from '../../../common/radio.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { startHttpReceiver } from '../../test/http-receiver.js';
import { saveNotificationTargets } from '../../test/notification-targets.js';
import { startSmtpServer } from '../../test/smtp-server.js';
import { addStaff } from '../../test/staff.js';
import { saveAllowPrivateNetworkSource } from '../settings/service.js';

/** Real processes on a real port: ffmpeg as the church's encoder, a webhook receiver and an SMTP server. */
const PASSWORD = 'dead-air-source-pw';
let t: Awaited<ReturnType<typeof createTestApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
let port: number;

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startHttpReceiver();
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  await makeMp3(join(dir, 'media', 'Choir - Hymn.mp3'), { seconds: 30 });
  t = await createTestApp({
    DATA_DIR: dir,
    SOURCE_PASSWORD: PASSWORD,
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://radio.example.org',
  });
  const superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
  await saveAllowPrivateNetworkSource(t.db, true);
  await saveNotificationTargets(t.app, superuser, {
    email: { enabled: true, events: ['dead_air'], recipients: ['engineer@church.example'] },
    webhook: {
      enabled: true,
      events: [...NOTIFICATION_EVENTS],
      url: `${receiver.url}/hook`,
      secret: 's3cret',
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('never dead air', () => {
  it('replaces an encoder sending digital silence for 12 s with the rotation, tells staff, and puts it back on air with sound', async () => {
    const changes: NowPlaying[] = [];
    t.app.nowPlaying.onChange((np) => changes.push(np));
    // Twelve seconds of digital silence, then four of a tone: a muted mixer, then someone unmutes it.
    const encoder = spawn('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi'],
      ...['-i', 'aevalsrc=if(lt(t\\,12)\\,0\\,0.5*sin(2*PI*440*t)):s=44100:d=16'],
      ...['-c:a', 'libmp3lame', '-b:a', '128k', '-content_type', 'audio/mpeg', '-f', 'mp3'],
      `icecast://source:${PASSWORD}@127.0.0.1:${port}/stream`,
    ]);
    let stderr = '';
    encoder.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const ended = new Promise<number | null>((resolve) => encoder.on('close', resolve));

    // On air at once (silence is not dead air yet), replaced after the silence time, and told.
    await vi.waitFor(() => expect(changes.some((np) => np.is_live)).toBe(true), { timeout: 8000 });
    const hook = await vi.waitFor(
      () => {
        const found = receiver.received.find((r) => JSON.parse(r.body).event === 'dead_air');
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(hook.headers['x-station-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    const wentOff = changes.findLastIndex((np) => np.is_live);
    await vi.waitFor(() => expect(changes.slice(wentOff).some((np) => !np.is_live)).toBe(true));
    await vi.waitFor(() => expect(smtp.received.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(smtp.received[0]!.envelopeTo).toEqual(['engineer@church.example']);
    expect(smtp.received[0]!.headers.get('subject')).toMatch(/dead air/i);

    // Sound again: back on the air, and staff hear that too.
    await vi.waitFor(() => expect(t.app.nowPlaying.nowPlaying().is_live).toBe(true), { timeout: 10_000 });
    await vi.waitFor(
      () => expect(receiver.received.some((r) => JSON.parse(r.body).event === 'dead_air_ended')).toBe(true),
      { timeout: 10_000 },
    );
    expect(await ended).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);
});
