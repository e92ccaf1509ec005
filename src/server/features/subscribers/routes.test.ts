import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailSubscribers } from '../../db/schema.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { csvCell } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let staff: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  staff = (await addStaff(t.db, 'newsdesk', 'admin')).headers;
  await t.db.insert(emailSubscribers).values([
    {
      email: 'older@example.org',
      name: 'Older',
      isActive: 'false',
      status: 'unsubscribed',
      createdAt: new Date('2026-01-01T00:00:00Z'),
    },
    { email: 'newer@example.org', name: null, createdAt: new Date('2026-02-01T00:00:00Z') },
    {
      email: 'trick@example.org',
      name: '=HYPERLINK("http://evil")',
      createdAt: new Date('2025-12-01T00:00:00Z'),
    },
  ]);
});
afterAll(() => t.close());

describe('GET /api/email-subscribers', () => {
  it('lists id, email, name, a boolean active flag and the opt-in status, newest first', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/email-subscribers', headers: staff });
    expect(res.statusCode).toBe(200);
    const items = res.json();
    expect(items.map((i: { email: string }) => i.email)).toEqual([
      'newer@example.org',
      'older@example.org',
      'trick@example.org',
    ]);
    expect(items[0]).toEqual({
      id: expect.any(String),
      email: 'newer@example.org',
      name: null,
      isActive: true,
      status: 'confirmed',
    });
    expect(items[1]).toMatchObject({ isActive: false, status: 'unsubscribed' });
  });

  it('exports CSV that a spreadsheet will not execute', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/email-subscribers.csv', headers: staff });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('email,name,active,source,subscribed_at,status');
    expect(lines[1]).toBe('"newer@example.org","","true","website","2026-02-01T00:00:00.000Z","confirmed"');
    expect(lines[2]).toMatch(/^"older@example.org","Older","false",.*,"unsubscribed"$/);
    expect(lines[3]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('quotes cells and defuses formulas', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('a"b')).toBe('"a""b"');
  });
});
