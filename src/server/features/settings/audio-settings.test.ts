import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUDIO_SETTINGS, type AudioSettings } from '../../../common/audio-settings.js';
import { createTestApp } from '../../test/helpers.js';
import { radioStorage } from '../../test/radio-storage.js';
import { addStaff } from '../../test/staff.js';
import { AUDIO_SETTINGS_KEY } from './service.js';
import { writeSetting } from './repository.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
  admin = (await addStaff(t.db, 'presenter', 'admin')).headers;
});
afterAll(() => t.close());

const URL = '/api/admin/station/audio';
const get = (headers = superuser) => t.app.inject({ method: 'GET', url: URL, headers });
const put = (payload: unknown, headers = superuser) =>
  t.app.inject({ method: 'PUT', url: URL, headers, payload: payload as object });

const valid: AudioSettings = {
  loudness_target_lufs: -14,
  true_peak_dbtp: -1.5,
  crossfade_seconds: 3.5,
  silence_threshold_dbfs: -55,
  silence_seconds: 12,
  bitrates: [64, 128],
};

describe("the Station tab's audio settings", () => {
  it('start at −16 LUFS, −1 dBTP, a 2 s crossfade, dead air after 10 s under −50 dBFS and every bitrate on; the engine reads the same', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      loudness_target_lufs: -16,
      true_peak_dbtp: -1,
      crossfade_seconds: 2,
      silence_threshold_dbfs: -50,
      silence_seconds: 10,
      bitrates: [128, 96, 80, 64],
    });
    expect(await radioStorage(t.db, t.config).audioSettings()).toEqual(DEFAULT_AUDIO_SETTINGS);
  });

  it('saves what a superuser sets, bitrates highest first, and the engine reads it for its next track', async () => {
    const saved = await put(valid);
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = { ...valid, bitrates: [128, 64] };
    expect(saved.json()).toEqual(expected);
    expect((await get()).json()).toEqual(expected);
    expect(await radioStorage(t.db, t.config).audioSettings()).toEqual(expected);
  });

  it.each([
    ['the limits themselves', { loudness_target_lufs: -30, true_peak_dbtp: -6, crossfade_seconds: 0 }],
    ['the other limits', { loudness_target_lufs: -10, true_peak_dbtp: 0, crossfade_seconds: 10 }],
    ['one bitrate', { bitrates: [80] }],
    ['fractions', { loudness_target_lufs: -23.5, true_peak_dbtp: -0.3, crossfade_seconds: 0.5 }],
  ])('accepts %s', async (_case, change) => {
    const res = await put({ ...valid, ...change });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject(change);
  });

  it.each([
    [
      'a target above −10',
      { loudness_target_lufs: -9.9 },
      'Loudness target must be between -30 and -10 LUFS',
    ],
    ['a target below −30', { loudness_target_lufs: -31 }, 'Loudness target must be between -30 and -10 LUFS'],
    ['a target as text', { loudness_target_lufs: '-16' }, 'Loudness target must be a number'],
    ['a peak above 0', { true_peak_dbtp: 0.5 }, 'Maximum true peak must be between -6 and 0 dBTP'],
    ['a peak below −6', { true_peak_dbtp: -7 }, 'Maximum true peak must be between -6 and 0 dBTP'],
    ['a peak of null', { true_peak_dbtp: null }, 'Maximum true peak must be a number'],
    ['a crossfade over 10 s', { crossfade_seconds: 10.5 }, 'Crossfade must be between 0 and 10 seconds'],
    ['a negative crossfade', { crossfade_seconds: -0.5 }, 'Crossfade must be between 0 and 10 seconds'],
    ['a crossfade off the 0.5 s steps', { crossfade_seconds: 1.25 }, 'Crossfade must be in steps of 0.5'],
    ['no bitrate on', { bitrates: [] }, 'At least one stream bitrate must stay on'],
    [
      'a bitrate the station has not',
      { bitrates: [128, 192] },
      'Each bitrate must be one of 128, 96, 80, 64',
    ],
    ['a bitrate as text', { bitrates: ['128'] }, 'Each bitrate must be one of 128, 96, 80, 64'],
    ['a bitrate twice', { bitrates: [64, 64] }, 'Each bitrate may be listed once'],
    ['bitrates not in a list', { bitrates: 128 }, 'Bitrates must be a list of kbps'],
    ['a field it does not know', { gain_db: 6 }, 'Unrecognized key'],
    ['a field missing', { crossfade_seconds: undefined }, 'Crossfade must be a number'],
  ])('refuses %s with a clear 400 and keeps what was saved', async (_case, change, message) => {
    const before = (await get()).json();
    const res = await put({ ...valid, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect((await get()).json()).toEqual(before);
  });

  it('refuses a body that is not settings', async () => {
    for (const payload of ['-16', [valid], null]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: URL,
        headers: { ...superuser, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('lets only a superuser read or change them', async () => {
    const before = (await get()).json();
    expect((await get({})).statusCode).toBe(401);
    expect((await get(admin)).statusCode).toBe(403);
    expect((await put(DEFAULT_AUDIO_SETTINGS, {})).statusCode).toBe(401);
    expect((await put(DEFAULT_AUDIO_SETTINGS, { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    expect((await put(DEFAULT_AUDIO_SETTINGS, admin)).statusCode).toBe(403);
    expect((await get()).json()).toEqual(before);
  });

  it('answers any settings with a 200 inside the limits or a 400 with a message, storing only what it accepts', async () => {
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -40, max: 20 }),
      fc.integer({ min: -40, max: 20 }).map((n) => n / 2),
      fc.constantFrom(null, '', '-16', true, 1e308, -1e308),
    );
    const body = fc.record(
      {
        loudness_target_lufs: number,
        true_peak_dbtp: number,
        crossfade_seconds: number,
        bitrates: fc.oneof(
          fc.array(fc.constantFrom(128, 96, 80, 64, 0, 192, '64'), { maxLength: 5 }),
          fc.anything({ maxDepth: 1 }),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const before = (await get()).json();
        const res = await put(payload);
        expect(res.statusCode, `${JSON.stringify(payload)} -> ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.statusCode).toBe(400);
          expect(typeof res.json().message).toBe('string');
          expect((await get()).json()).toEqual(before);
          return;
        }
        const kept = res.json() as AudioSettings;
        expect(kept.loudness_target_lufs).toBeGreaterThanOrEqual(-30);
        expect(kept.loudness_target_lufs).toBeLessThanOrEqual(-10);
        expect(kept.true_peak_dbtp).toBeGreaterThanOrEqual(-6);
        expect(kept.true_peak_dbtp).toBeLessThanOrEqual(0);
        expect(Number.isInteger(kept.crossfade_seconds * 2)).toBe(true);
        expect(kept.bitrates.length).toBeGreaterThan(0);
        expect([128, 96, 80, 64].filter((kbps) => kept.bitrates.includes(kbps as 64))).toEqual(kept.bitrates);
        expect((await get()).json()).toEqual(kept);
      }),
      { numRuns: 80 },
    );
  });

  it('a stored value gone bad reads as the defaults rather than failing', async () => {
    await writeSetting(t.db, AUDIO_SETTINGS_KEY, { loudness_target_lufs: 'loud' });
    expect((await get()).json()).toEqual(DEFAULT_AUDIO_SETTINGS);
    expect(await radioStorage(t.db, t.config).audioSettings()).toEqual(DEFAULT_AUDIO_SETTINGS);
  });
});
