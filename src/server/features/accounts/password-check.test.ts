import { describe, expect, it } from 'vitest';
import { hashPassword } from './passwords.js';
import { PasswordCheckBusyError, passwordCheckMetrics, passwordMatches } from './password-check.js';

describe('passwordMatches', () => {
  it('is true only for the right password of an existing account', async () => {
    const hash = await hashPassword('grace-and-peace');
    expect(await passwordMatches(hash, 'grace-and-peace')).toBe(true);
    expect(await passwordMatches(hash, 'grace-and-war')).toBe(false);
    expect(await passwordMatches(undefined, 'grace-and-peace')).toBe(false);
  });

  it('spends one verification for an unknown account too', async () => {
    const before = passwordCheckMetrics.verifications;
    await passwordMatches(undefined, 'anything');
    expect(passwordCheckMetrics.verifications - before).toBe(1);
  });

  it('checks a few at a time, queues a bounded number and turns the rest away', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 80 }, () => passwordMatches(undefined, 'guess')),
    );
    const busy = results.filter((r) => r.status === 'rejected' && r.reason instanceof PasswordCheckBusyError);
    const checked = results.filter((r) => r.status === 'fulfilled' && r.value === false);
    expect(busy).toHaveLength(80 - 4 - 64);
    expect(checked).toHaveLength(4 + 64);
    // Once the flood has passed, checks run again.
    expect(await passwordMatches(undefined, 'later')).toBe(false);
  });
});
