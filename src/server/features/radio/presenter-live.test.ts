import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LiveSourceOwner } from '../../radio/live-input.js';
import type { SourceSwitch } from '../../radio/source-switch.js';
import { makeMp3, tempAudioDir } from '../../radio/test-audio.js';
import { createTestApp } from '../../test/helpers.js';
import { waitFor } from '../../test/icecast-server.js';
import { inMemoryPresenterSchedule } from '../../test/presenter-schedule.js';
import { addStaff } from '../../test/staff.js';
import { rotateSourcePassword } from '../presenters/service.js';

/**
 * A presenter's real encoder (ffmpeg over icecast://) against the live input, with the schedule in memory:
 * refused before their slot, on the air in it, refused after it; the station's password at any hour.
 */
const STATION_PASSWORD = 'station-override-pw';
const MINUTE = 60_000;
const schedule = inMemoryPresenterSchedule();
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;
let ruth: { id: string; password: string };

beforeAll(async () => {
  const dir = await tempAudioDir();
  await mkdir(join(dir, 'media'));
  await makeMp3(join(dir, 'media', 'tone.mp3'), { seconds: 3 });
  t = await createTestApp(
    { DATA_DIR: dir, SOURCE_PASSWORD: STATION_PASSWORD },
    { presenterSchedule: schedule, logger: { level: 'info', stream: logStream } },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  await t.app.nowPlaying.start();
  const user = await addStaff(t.db, 'pastor-ruth', 'presenter');
  ruth = { id: user.id, password: await rotateSourcePassword(t.db, user.id) };
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** Ruth's Sunday Service, starting this many minutes from now and lasting an hour. */
function programmeIn(minutes: number) {
  const startsAt = new Date(Date.now() + minutes * MINUTE);
  schedule.programmes.splice(0, schedule.programmes.length, {
    presenterId: ruth.id,
    programmeTitle: 'Sunday Service',
    startsAt,
    endsAt: new Date(startsAt.getTime() + 60 * MINUTE),
  });
  return startsAt;
}

// Each case begins with the live input free (the previous encoder's audio played out).
beforeEach(async () => {
  await waitFor('the live input to be free', () => (t.app.radio.live.busy ? undefined : true), 20_000);
  schedule.programmes.length = 0;
});

/** ffmpeg sending `seconds` of a sine as MP3 in real time, as a presenter's encoder would. */
function encoder(user: string, password: string, seconds = 1) {
  const child = spawn('ffmpeg', [
    ...[
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=660:duration=${seconds}`,
    ],
    ...[
      '-c:a',
      'libmp3lame',
      '-b:a',
      '96k',
      '-content_type',
      'audio/mpeg',
      '-ice_name',
      'Church mixer',
      '-f',
      'mp3',
    ],
    `icecast://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/stream`,
  ]);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
}

/** Who the live input says connected, as soon as an encoder is live. */
const connectedWhileLive = () =>
  waitFor(
    'an encoder to be live',
    () => (t.app.radio.live.busy ? t.app.radio.live.session?.info.connectedBy : undefined),
    15_000,
  );

/** The answer to an encoder's request, as a raw socket sees it (the reason is in the body). */
function rawAnswer(user: string, password: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('error', () => undefined);
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('close', () => resolve(text));
    const auth = Buffer.from(`${user}:${password}`).toString('base64');
    socket.write(
      `SOURCE /stream HTTP/1.0\r\nAuthorization: Basic ${auth}\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
  });
}

/** Icecast's song-title call, as encoders send it. */
const metadata = (user: string, password: string, song: string) =>
  fetch(
    `http://127.0.0.1:${port}/admin/metadata?mount=/stream&mode=updinfo&song=${encodeURIComponent(song)}`,
    {
      headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    },
  );

describe("a presenter's encoder", () => {
  it('is refused before the slot with 403 and the reason, which is logged', async () => {
    programmeIn(30);
    logLines.length = 0;
    const result = await encoder('pastor-ruth', ruth.password);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/403/);
    expect(t.app.radio.live.busy).toBe(false);

    const answer = await rawAnswer('pastor-ruth', ruth.password);
    expect(answer).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n/);
    expect(answer).toMatch(
      /\r\n\r\nNot your slot now: your encoder is let in from .+ for "Sunday Service"\n$/,
    );
    const refusal = logLines.find(
      (line) => line.msg === 'live source refused: presenter outside their programme',
    );
    expect(refusal).toMatchObject({ presenter: 'pastor-ruth', presenterId: ruth.id, remote: '127.0.0.1' });
    expect(refusal?.reason).toMatch(/^Not your slot now/);
    expect(Date.parse(String(refusal?.at))).toBeGreaterThan(Date.now() - MINUTE);
  }, 30_000);

  it('is let in from 5 minutes before the slot, held off the air until it starts, and the session says whose it is', async () => {
    const startsAt = programmeIn(3);
    const done = encoder('pastor-ruth', ruth.password, 3);
    const owner = await connectedWhileLive();
    expect(owner).toEqual<LiveSourceOwner>({
      kind: 'presenter',
      presenterId: ruth.id,
      username: 'pastor-ruth',
      programmeTitle: 'Sunday Service',
      opensAt: new Date(startsAt.getTime() - 5 * MINUTE),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 60 * MINUTE),
    });
    // Let in early, their encoder waits off the air, the rotation playing, until their programme starts.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(t.app.nowPlaying.nowPlaying().is_live).toBe(false);
    expect(await done).toEqual({ code: 0, stderr: '' });
  }, 30_000);

  it('has its first audio decoded while it waits, so the presenter is heard on their start second', async () => {
    const startsAt = programmeIn(6 / 60);
    const done = encoder('pastor-ruth', ruth.password, 9);
    await connectedWhileLive();
    // The switch the engine mixes from: its live source's decoder, while the presenter is still held back.
    const live = (t.app.radio as unknown as { sources: SourceSwitch }).sources.live;
    const readyBeforeStart = await waitFor(
      'decoded audio before the programme starts',
      () => {
        if (t.app.nowPlaying.nowPlaying().is_live || Date.now() >= startsAt.getTime()) return false;
        return (live.liveDecoder?.available ?? 0) > 0 ? true : undefined;
      },
      15_000,
    );
    expect(readyBeforeStart).toBe(true);
    await waitFor(
      'the presenter on the air',
      () => (t.app.nowPlaying.nowPlaying().is_live ? true : undefined),
      15_000,
    );
    expect(await done).toEqual({ code: 0, stderr: '' });
  }, 30_000);

  it("at their programme's end is disconnected, and nothing more of theirs airs", async () => {
    schedule.programmes.splice(0, schedule.programmes.length, {
      presenterId: ruth.id,
      programmeTitle: 'Sunday Service',
      startsAt: new Date(Date.now() - 10 * MINUTE),
      endsAt: new Date(Date.now() + 4000),
    });
    logLines.length = 0;
    const done = encoder('pastor-ruth', ruth.password, 20);
    await waitFor(
      'now playing to say live',
      () => (t.app.nowPlaying.nowPlaying().is_live ? true : undefined),
      15_000,
    );
    await waitFor('the live input to be free', () => (t.app.radio.live.busy ? undefined : true), 20_000);
    await done;
    // A second or two of theirs was decoded ahead when they were disconnected: it is not put on the air after.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(logLines.filter((line) => line.msg === 'live source on air')).toHaveLength(1);
    expect(logLines.filter((line) => line.msg === 'programme ended; presenter disconnected')).toHaveLength(1);
    expect(t.app.nowPlaying.nowPlaying().is_live).toBe(false);
  }, 40_000);

  it('takes the air at once when the programme has begun', async () => {
    programmeIn(-10);
    const done = encoder('pastor-ruth', ruth.password, 5);
    expect(await connectedWhileLive()).toMatchObject({ kind: 'presenter', presenterId: ruth.id });
    await waitFor(
      'now playing to say live',
      () => (t.app.nowPlaying.nowPlaying().is_live ? true : undefined),
      15_000,
    );
    // Their encoder's song titles are theirs to announce while they are live.
    expect((await metadata('pastor-ruth', ruth.password, 'Hymn 1')).status).toBe(200);
    expect((await metadata('source', STATION_PASSWORD, 'Hymn 2')).status).toBe(200);
    expect(await done).toEqual({ code: 0, stderr: '' });
  }, 30_000);

  it('is refused once the programme has ended', async () => {
    programmeIn(-61);
    const result = await encoder('pastor-ruth', ruth.password);
    expect(result.stderr).toMatch(/403/);
    // Its song titles too, with the reason (escaped, as Icecast's XML answer).
    const refused = await metadata('pastor-ruth', ruth.password, 'Hymn 3');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(
      '<message>Not your slot now: no programme of yours is on the schedule</message>',
    );
  }, 30_000);

  it('with a wrong password gets 401', async () => {
    programmeIn(0);
    const result = await encoder('pastor-ruth', 'not-her-password');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/401/);
    expect(await rawAnswer('pastor-ruth', 'not-her-password')).toMatch(/^HTTP\/1\.0 401 Unauthorized\r\n/);
  }, 30_000);
});

describe("the station's source password", () => {
  it('takes the air at any hour, with no programme on the schedule', async () => {
    const done = encoder('source', STATION_PASSWORD, 2);
    expect(await connectedWhileLive()).toEqual({ kind: 'station' });
    expect(await done).toEqual({ code: 0, stderr: '' });
  }, 30_000);

  it('wrong, gets 401', async () => {
    const result = await encoder('source', 'wrong-station-pw');
    expect(result.stderr).toMatch(/401/);
  }, 30_000);
});
