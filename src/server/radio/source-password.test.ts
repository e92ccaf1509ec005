import { describe, expect, it } from 'vitest';
import { basicAuthMatches } from './source-password.js';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('live-input password', () => {
  it.each([
    [basic('source', 'secret-pw'), true],
    [basic('source', 'secret-px'), false],
    [basic('source', 'secret-pw-longer'), false],
    [basic('admin', 'secret-pw'), false],
    [basic('source', ''), false],
    [`Bearer ${Buffer.from('source:secret-pw').toString('base64')}`, false],
    ['Basic', false],
    ['Basic ###', false],
    [Buffer.from('source:secret-pw').toString('base64'), false],
    [undefined, false],
  ])('checks %s -> %s', (header, ok) => {
    expect(basicAuthMatches(header, 'secret-pw')).toBe(ok);
  });

  it('never lets anyone in when no password exists', () => {
    expect(basicAuthMatches(basic('source', ''), null)).toBe(false);
  });
});
