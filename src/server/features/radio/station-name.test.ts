import { execFile } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SINGLE_LINE_TEXT_MESSAGE as STATION_TEXT_MESSAGE } from '../../../common/text.js';
import { escapeHtml } from '../../html.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';

// Over a real socket: a header Node refuses throws after the reply is handed over, which inject does not show.
let t: Awaited<ReturnType<typeof createTestApp>>;
let base: string;
let superuser: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  await t.app.nowPlaying.start();
}, 60_000);
afterAll(() => t.close());

const station = {
  networkName: 'Grace Church Network',
  networkUrl: 'https://gracechurch.example',
  timeZone: 'UTC',
};

const saveName = (name: string, extra: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/admin/station',
    headers: superuser,
    payload: { ...station, name, ...extra },
  });

/** Opens GET /stream, waits for the head and the first audio bytes (at most 5 s), then hangs up. */
function listen(headers: Record<string, string> = {}, bytes = 1) {
  return new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(`${base}/stream`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
        if (length >= bytes) {
          req.destroy();
          resolve({ res, body: Buffer.concat(chunks) });
        }
      });
    });
    req.setTimeout(5000, () => req.destroy(new Error('GET /stream did not answer')));
    req.on('error', reject);
    req.end();
  });
}

/** The header's bytes read as UTF-8, as Icecast players read icy-name (Node hands them over as latin1). */
const asUtf8 = (value: unknown) => Buffer.from(String(value), 'latin1').toString('utf8');

async function expectStationWorks(name: string) {
  const { res, body } = await listen();
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('audio/mpeg');
  expect(body.length).toBeGreaterThan(0);
  expect(asUtf8(res.headers['icy-name'])).toBe(name);
  expect(asUtf8(res.headers['icy-description'])).toBe(`${name}, a radio ministry of ${station.networkName}`);
  // The player's warm-up HEAD carries the same headers.
  const head = await fetch(`${base}/stream`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(asUtf8(head.headers.get('icy-name'))).toBe(name);
  const page = await fetch(`${base}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(escapeHtml(name));
  const current = await fetch(`${base}/api/radio/current`);
  expect(current.status).toBe(200);
  await current.arrayBuffer();
}

describe('a station name in any script', () => {
  it.each([
    ['Cyrillic', 'Радио Благодать'],
    ['Korean', '은혜 라디오'],
    ['an emoji', 'Grace Radio 🙏📻'],
    ['Latin-1 accents', 'Radio Grâce Élan'],
    ['a character beyond the first plane', 'Radio 𠜎𝄞'],
    ['Arabic and Hebrew', 'راديو النعمة חסד'],
    ['an apostrophe and a semicolon', "St Mary's; Radio"],
  ])(
    'with %s is saved, and new listeners still get the stream, the page and what is playing',
    async (_, name) => {
      expect((await saveName(name)).statusCode).toBe(200);
      await expectStationWorks(name);
    },
  );

  it('reaches a real Icecast client: ffprobe reads icy-name as the name staff saved', async () => {
    const name = 'Радио 은혜 🙏';
    expect((await saveName(name)).statusCode).toBe(200);
    const { stdout } = await promisify(execFile)(
      'ffprobe',
      [
        '-v',
        'error',
        '-read_intervals',
        '%+#1',
        '-show_entries',
        'format_tags=icy-name',
        '-of',
        'json',
        `${base}/stream`,
      ],
      { timeout: 15_000 },
    );
    const tags = (JSON.parse(stdout) as { format?: { tags?: Record<string, string> } }).format?.tags;
    expect(tags?.['icy-name']).toBe(name);
  });

  it.each([
    ['a line feed', 'Grace\nRadio'],
    ['a carriage return', 'Grace\rRadio'],
    ['a line separator', 'Grace\u2028Radio'],
    ['a bell', 'Grace\u0007Radio'],
    ['an escape', 'Grace\u001b[31mRadio'],
    ['a C1 control', 'Grace\u0085Radio'],
    ['a delete', 'Grace\u007fRadio'],
  ])('with %s is refused with a clear 400, and the stream keeps its name', async (_, name) => {
    expect((await saveName('Grace Live Radio')).statusCode).toBe(200);
    const res = await saveName(name);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(`Station name ${STATION_TEXT_MESSAGE}`);
    const network = await saveName('Grace Live Radio', { networkName: name });
    expect(network.statusCode).toBe(400);
    expect(network.json().message).toContain(`Network name ${STATION_TEXT_MESSAGE}`);
    await expectStationWorks('Grace Live Radio');
  });

  it('refuses a network address holding a control character (it goes into icy-url)', async () => {
    const res = await saveName('Grace Live Radio', { networkUrl: 'https://grace.example/\u0001' });
    expect(res.statusCode).toBe(400);
  });

  it('any name, in any Unicode plane, is saved or refused with a 400, and GET /stream answers with audio after it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), async (name) => {
        const res = await saveName(name);
        expect([200, 400]).toContain(res.statusCode);
        const saved = res.statusCode === 200 ? (res.json() as { name: string }).name : undefined;
        const { res: stream, body } = await listen();
        expect(stream.statusCode).toBe(200);
        expect(body.length).toBeGreaterThan(0);
        if (saved !== undefined) expect(asUtf8(stream.headers['icy-name'])).toBe(saved);
        const current = await fetch(`${base}/api/radio/current`);
        expect(current.status).toBe(200);
        await current.arrayBuffer();
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
