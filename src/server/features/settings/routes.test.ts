import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { sourcePassword, SOURCE_PASSWORD_KEY } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let superuser: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ STATION_NAME: 'Grace Live Radio', SOURCE_PASSWORD: 'from-the-environment' });
  superuser = (await addStaff(t.db, 'station-manager', 'superuser')).headers;
});
afterAll(() => t.close());

const next = {
  name: 'Hope FM',
  networkName: 'Hope Network',
  networkUrl: 'https://hope.example.org',
  timeZone: 'Africa/Lagos',
};

describe('the Station tab', () => {
  it('starts from the environment and applies saved details at once to the API and the pages', async () => {
    const current = await t.app.inject({ method: 'GET', url: '/api/admin/station', headers: superuser });
    expect(current.json()).toMatchObject({ name: 'Grace Live Radio', timeZone: 'UTC' });

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/station',
      headers: superuser,
      payload: { ...next, name: ' Hope FM ' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(next);
    expect((await t.app.inject({ method: 'GET', url: '/api/station' })).json()).toEqual(next);
    expect(t.app.station()).toEqual(next);
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).toContain('Hope FM');
  });

  it('refuses bad values with a clear message and keeps the saved ones', async () => {
    for (const payload of [
      { ...next, name: '' },
      { ...next, networkUrl: 'ftp://x' },
      { ...next, timeZone: 'Mars/Olympus' },
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/station',
        headers: superuser,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/name|address|Time zone/);
    }
    expect(t.app.station()).toEqual(next);
  });

  it('rotates the live-input password into the settings table', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/admin/station/source-password',
      headers: superuser,
    });
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/admin/station/source-password',
      headers: superuser,
    });
    const a = first.json().sourcePassword;
    const b = second.json().sourcePassword;
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(b).not.toBe(a);
    // The radio engine's own reader sees the new password (it wins over SOURCE_PASSWORD).
    expect(await sourcePassword(t.db, t.config)).toBe(b);
    const [row] = await t.db.select().from(settings).where(eq(settings.key, SOURCE_PASSWORD_KEY));
    expect(row!.value).toBe(b);
  });
});
