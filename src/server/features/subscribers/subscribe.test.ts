import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_EMAIL } from '../../../common/subscribers.js';
import { emailSubscribers } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { signingSecret } from '../settings/service.js';
import { unsubscribeToken } from './tokens.js';

let t: Awaited<ReturnType<typeof createTestApp>>;

const subscribe = (payload: unknown, ip = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/email-subscribe',
    payload: payload as object,
    remoteAddress: ip,
  });
const rows = () => t.db.select().from(emailSubscribers);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/email-subscribe', () => {
  it('adds an address once, kindly takes a second subscription, and re-activates an unsubscribed one', async () => {
    expect((await subscribe({ email: ' Ruth@Example.org ', name: ' Ruth ' })).statusCode).toBe(201);
    expect((await subscribe({ email: 'ruth@example.org' })).statusCode).toBe(201);
    let all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      email: 'ruth@example.org',
      name: 'Ruth',
      isActive: 'true',
      status: 'confirmed',
      source: 'website',
    });

    await t.db.update(emailSubscribers).set({ isActive: 'false', status: 'unsubscribed' });
    expect((await subscribe({ email: 'ruth@example.org', name: 'Ruth A.' })).statusCode).toBe(201);
    all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ isActive: 'true', status: 'confirmed', name: 'Ruth A.' });
  });

  it('without SMTP_URL confirms at once an address left pending while e-mail was on', async () => {
    await t.db
      .insert(emailSubscribers)
      .values({ email: 'naomi@example.org', status: 'pending', isActive: 'false' });
    const res = await subscribe({ email: 'naomi@example.org' }, '10.0.0.4');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Subscribed' });
    const naomi = (await rows()).find((row) => row.email === 'naomi@example.org');
    expect(naomi).toMatchObject({ status: 'confirmed', isActive: 'true' });
  });

  it('still honours the unsubscribe links of e-mails sent while e-mail was on', async () => {
    await subscribe({ email: 'orpah@example.org' }, '10.0.0.5');
    const orpah = (await rows()).find((row) => row.email === 'orpah@example.org')!;
    const url = `/unsubscribe?token=${unsubscribeToken(await signingSecret(t.db), orpah)}`;
    expect((await t.app.inject({ url })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You have been unsubscribed');
    expect((await rows()).find((row) => row.email === 'orpah@example.org')).toMatchObject({
      status: 'unsubscribed',
      isActive: 'false',
    });
  });

  it.each([
    ['no address', {}],
    ['an address without @', { email: 'ruth.example.org' }],
    ['a number', { email: 42 }],
    ['an address over 254 characters', { email: `${'a'.repeat(250)}@example.org` }],
  ])('refuses %s with SPEC.md message as JSON', async (_case, body) => {
    const res = await subscribe(body, '10.0.0.2');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(INVALID_EMAIL);
  });

  it('refuses a name that cannot be stored, keeping the stored list as it was', async () => {
    const before = await rows();
    const res = await subscribe({ email: 'nul@example.org', name: 'a\u0000b' }, '10.0.0.3');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('cannot be stored');
    expect(await rows()).toEqual(before);
  });

  it('answers any body with a 2xx or 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 2 }),
          fc.record({
            email: fc.oneof(fc.emailAddress(), fc.string({ unit: 'binary' })),
            name: fc.option(fc.string()),
          }),
        ),
        fc.integer({ min: 10, max: 250 }),
        async (body, host) => {
          const res = await subscribe(body, `10.2.0.${host}`);
          expect(res.statusCode).toBeLessThan(500);
          if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('limits how many subscriptions one address sends in an hour', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push((await subscribe({ email: `s${i}@example.org` }, '10.9.9.9')).statusCode);
    expect(codes[10]).toBe(429);
    expect(codes[9]).toBe(201);
  });
});
