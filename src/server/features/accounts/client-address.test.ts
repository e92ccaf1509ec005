import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.js';
import { signIn } from '../../test/staff.js';

/** Per-address limits are only as good as the address: X-Forwarded-For counts only from trusted proxies. */
describe('the caller address behind sign-in limits', () => {
  const apps: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('ignores a forged X-Forwarded-For by default, so changing it each time buys nothing', async () => {
    const t = await createTestApp();
    apps.push(t);
    const statuses = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await signIn(t.app, 'nobody', 'wrong-password', `10.0.0.${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('honours it when TRUST_PROXY says the proxy in front sets it', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'true' });
    apps.push(t);
    for (let i = 0; i < 5; i++) await signIn(t.app, 'nobody', 'wrong-password', '10.0.0.1');
    expect((await signIn(t.app, 'nobody', 'wrong-password', '10.0.0.1')).statusCode).toBe(429);
    expect((await signIn(t.app, 'nobody', 'wrong-password', '10.0.0.2')).statusCode).toBe(401);
  });

  it('trusts only the listed proxy addresses', async () => {
    const t = await createTestApp({ TRUST_PROXY: '192.0.2.1' });
    apps.push(t);
    const viaProxy = (forwardedFor: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        remoteAddress: '192.0.2.1',
        headers: { 'x-forwarded-for': forwardedFor },
        payload: { username: 'nobody', password: 'wrong-password' },
      });
    for (let i = 0; i < 5; i++) await viaProxy('10.0.0.1');
    expect((await viaProxy('10.0.0.1')).statusCode).toBe(429);
    expect((await viaProxy('10.0.0.2')).statusCode).toBe(401);
  });

  it('with a hop count, trusts only that many proxies: what the caller prepends is ignored', async () => {
    const t = await createTestApp({ TRUST_PROXY: '1' });
    apps.push(t);
    // The one trusted proxy appends the address it saw; anything before that came from the caller.
    for (let i = 0; i < 5; i++) await signIn(t.app, 'nobody', 'wrong-password', `10.9.9.${i}, 10.0.0.1`);
    expect((await signIn(t.app, 'nobody', 'wrong-password', '10.9.9.99, 10.0.0.1')).statusCode).toBe(429);
    expect((await signIn(t.app, 'nobody', 'wrong-password', '10.9.9.99, 10.0.0.2')).statusCode).toBe(401);
  });
});
