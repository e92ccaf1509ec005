import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_CHANNELS, type ViralStats } from '../../../common/sharing.js';
import { listenerMinutes, shareEvents } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';

let t: Awaited<ReturnType<typeof createTestApp>>;

const share = (payload: unknown, ip = '10.1.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/share-events', payload: payload as object, remoteAddress: ip });
const stats = async () => (await t.app.inject({ url: '/api/viral-stats' })).json() as ViralStats;
const stored = () => t.db.select().from(shareEvents);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/share-events', () => {
  it('counts a share from every channel, with its channel and nothing about who', async () => {
    for (const channel of SHARE_CHANNELS) expect((await share({ channel })).statusCode).toBe(201);
    const rows = await stored();
    expect(rows.map((r) => r.channel).sort()).toEqual([...SHARE_CHANNELS].sort());
    expect(Object.keys(rows[0]!).sort()).toEqual(['channel', 'createdAt', 'id']);
  });

  it.each([
    ['no body', undefined],
    ['an unknown channel', { channel: 'myspace' }],
    ['a number', { channel: 3 }],
    ['an array', [{ channel: 'copy' }]],
  ])('refuses %s with a clear 400 and counts nothing', async (_case, body) => {
    const before = (await stored()).length;
    const res = await share(body, '10.1.0.2');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/channel|body/i);
    expect(await stored()).toHaveLength(before);
  });

  it('answers any body with a 2xx or 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 2 }), async (body) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/share-events',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body),
          remoteAddress: `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
        });
        expect(res.statusCode).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it('limits the shares counted from one address', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await share({ channel: 'copy' }, '10.1.0.9')).statusCode);
    expect(codes.slice(0, 30).every((code) => code === 201)).toBe(true);
    expect(codes[30]).toBe(429);
  });
});

describe('GET /api/viral-stats', () => {
  it('serves only measured figures: shares counted today and in all, listeners from the broadcaster, no countries', async () => {
    await t.db.delete(shareEvents);
    await t.db
      .insert(shareEvents)
      .values([
        { channel: 'copy', createdAt: new Date(Date.now() - 3 * 86_400_000) },
        { channel: 'facebook' },
        { channel: 'whatsapp' },
      ]);
    await t.db.insert(listenerMinutes).values({
      minute: new Date(Math.floor(Date.now() / 60_000) * 60_000),
      listeners: 3,
      peak: 4,
      listeningSeconds: 5400,
    });
    const figures = await stats();
    expect(figures).toEqual({
      listenersNow: 0,
      peakToday: 4,
      sharesToday: 2,
      sharesTotal: 3,
      hoursListenedToday: 1.5,
      countries: null,
    });
    // A share made now shows on the next refresh.
    await share({ channel: 'twitter' }, '10.1.0.3');
    expect((await stats()).sharesTotal).toBe(4);
  });
});
