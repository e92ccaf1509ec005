import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERNAME_INVISIBLE_MESSAGE, USERNAME_MIXED_SCRIPTS_MESSAGE } from '../../../common/admin.js';
import { createTestApp } from '../../test/helpers.js';
import { addStaff } from '../../test/staff.js';
import { AccountError, createAdminUser } from './service.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let root: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  root = (await addStaff(t.db, 'root-pastor', 'superuser')).headers;
  await addStaff(t.db, 'admin', 'admin');
});
afterAll(() => t.close());

const create = (username: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/create',
    headers: root,
    payload: { username, password: 'a long enough password', role: 'admin' },
  });

// Each name beside an existing 'admin': what the Settings tab's call answers, and what the shell's
// `npm run admin -- create` (the service without the HTTP contract) says.
const cases: [string, string, number, string][] = [
  ['a zero-width space', 'ad\u200bmin', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a zero-width joiner', 'pastor\u200djohn', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a word joiner', 'pastor\u2060john', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a byte order mark', 'dea\ufeffcon', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a right-to-left override', 'nimda\u202e', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a bidi isolate', 'dea\u2066con\u2069', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a soft hyphen', 'dea\u00adcon', 400, USERNAME_INVISIBLE_MESSAGE],
  ['a Cyrillic а among Latin letters', '\u0430dmin', 400, USERNAME_MIXED_SCRIPTS_MESSAGE],
  ['a Greek ο among Latin letters', 'pastοr', 400, USERNAME_MIXED_SCRIPTS_MESSAGE],
  ['another case of an existing name', 'Admin', 409, 'Username already exists'],
  ['a full-width form of an existing name', 'ａｄｍｉｎ', 409, 'Username already exists'],
];

describe('look-alike staff usernames', () => {
  it.each(cases)('the create call refuses %s', async (_case, username, status, message) => {
    const res = await create(username);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
  });

  it.each(cases)('the shell refuses %s', async (_case, username, status, message) => {
    const refused = await createAdminUser(t.db, { username, password: 'long enough', role: 'admin' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AccountError);
    expect(refused).toMatchObject({ statusCode: status, message });
  });

  it.each([
    ['Cyrillic alone', 'дьякон'],
    ['Greek alone', 'διάκονος'],
    ['Japanese (Han and kana)', '牧師さん'],
    ['Latin with digits, dots and a hyphen', 'pastor.john-2'],
  ])('still takes a name in %s, stored in NFC', async (_case, username) => {
    const res = await create(username.normalize('NFD'));
    expect(res.statusCode).toBe(201);
    expect(res.json().user.username).toBe(username.normalize('NFC'));
  });
});
